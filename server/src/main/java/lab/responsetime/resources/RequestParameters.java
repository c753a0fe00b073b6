package lab.responsetime.resources;

import jakarta.ws.rs.core.MultivaluedMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import lab.responsetime.core.StudyRequest;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.computation.ComputationModel;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Format;

/**
 * Reads the query parameters of {@code /api/books} and {@code /api/videos} strictly: every unknown,
 * repeated, malformed or out-of-range parameter is an error whose message says what is allowed. All
 * errors of a request are reported together.
 */
final class RequestParameters {
    static final List<String> NAMES = List.of("count", "format", "compression", "level", "cm");
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,10}");

    private RequestParameters() {}

    /** Thrown with every problem of a request, joined in one message. */
    static final class InvalidParametersException extends Exception {
        InvalidParametersException(String message) {
            super(message);
        }
    }

    static <T> StudyRequest<T> parse(
            ObjectKind<T> kind, MultivaluedMap<String, String> query, int datasetSize)
            throws InvalidParametersException {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, List<String>> parameter : query.entrySet()) {
            if (!NAMES.contains(parameter.getKey())) {
                problems.add(
                        "unknown parameter \""
                                + parameter.getKey()
                                + "\"; allowed parameters are "
                                + String.join(", ", NAMES));
            } else if (parameter.getValue().size() > 1) {
                problems.add(
                        "parameter \""
                                + parameter.getKey()
                                + "\" is given "
                                + parameter.getValue().size()
                                + " times; give it once");
            }
        }
        // A dataset smaller than the default count is served whole when no count is given.
        int count =
                integer(
                        query,
                        "count",
                        1,
                        datasetSize,
                        Math.min(StudyRequest.DEFAULT_COUNT, datasetSize),
                        problems);
        Format format =
                choice(query, "format", Format.values(), Format::parameter, Format.JSON, problems);
        int problemsBefore = problems.size();
        Compression compression =
                choice(
                        query,
                        "compression",
                        Compression.values(),
                        Compression::parameter,
                        Compression.NONE,
                        problems);
        // A level's range depends on the compression: an unknown compression's error says enough.
        int level = problems.size() > problemsBefore ? 0 : level(query, compression, problems);
        int cm = integer(query, "cm", 0, ComputationModel.values().length - 1, 0, problems);
        if (cm > 0 && kind.sortSequence().isEmpty()) {
            problems.add(
                    "cm must be 0 for "
                            + kind.plural()
                            + ", which has no top-level scalar field to sort by, got \""
                            + query.getFirst("cm")
                            + "\"");
        }
        if (!problems.isEmpty()) {
            throw new InvalidParametersException(String.join("; ", problems));
        }
        return new StudyRequest<>(kind, count, format, compression, level, ComputationModel.of(cm));
    }

    /**
     * The compression level asked for, or the compression's default; 0 for none, which takes no
     * level.
     */
    private static int level(
            MultivaluedMap<String, String> query, Compression compression, List<String> problems) {
        String value = query.getFirst("level");
        if (compression.levels().isEmpty()) {
            if (value != null) {
                problems.add(
                        "level is only for a compression ("
                                + Compression.levelRanges()
                                + "); compression="
                                + compression.parameter()
                                + " takes none");
            }
            return 0;
        }
        Compression.Levels levels = compression.levels().get();
        if (value == null) {
            return levels.defaultLevel();
        }
        if (DIGITS.matcher(value).matches()) {
            long parsed = Long.parseLong(value);
            if (parsed >= levels.min() && parsed <= levels.max()) {
                return (int) parsed;
            }
        }
        problems.add("level must be " + compression.levelRule() + ", got \"" + value + "\"");
        return levels.defaultLevel();
    }

    private static int integer(
            MultivaluedMap<String, String> query,
            String name,
            int min,
            int max,
            int defaultValue,
            List<String> problems) {
        String value = query.getFirst(name);
        if (value == null) {
            return defaultValue;
        }
        if (DIGITS.matcher(value).matches()) {
            long parsed = Long.parseLong(value);
            if (parsed >= min && parsed <= max) {
                return (int) parsed;
            }
        }
        problems.add(
                name
                        + " must be an integer between "
                        + min
                        + " and "
                        + max
                        + ", got \""
                        + value
                        + "\"");
        return defaultValue;
    }

    private static <E> E choice(
            MultivaluedMap<String, String> query,
            String name,
            E[] values,
            Function<E, String> parameter,
            E defaultValue,
            List<String> problems) {
        String value = query.getFirst(name);
        if (value == null) {
            return defaultValue;
        }
        for (E candidate : values) {
            if (parameter.apply(candidate).equals(value)) {
                return candidate;
            }
        }
        problems.add(
                name
                        + " must be one of "
                        + Arrays.stream(values).map(parameter).collect(Collectors.joining(", "))
                        + ", got \""
                        + value
                        + "\"");
        return defaultValue;
    }
}
