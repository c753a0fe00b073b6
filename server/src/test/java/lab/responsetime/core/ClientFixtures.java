package lab.responsetime.core;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import lab.responsetime.LabConfiguration;
import lab.responsetime.api.Book;
import lab.responsetime.api.Video;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.computation.Cancellation;
import lab.responsetime.core.computation.ComputationModel;
import lab.responsetime.core.dataset.DatasetGenerator;
import lab.responsetime.core.dataset.DatasetParser;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.dataset.SchemaInference;
import lab.responsetime.core.dataset.SpecFields;
import lab.responsetime.core.formats.BodyWriter;
import lab.responsetime.core.formats.Format;
import lab.responsetime.core.formats.IndependentDecoders;
import lab.responsetime.core.formats.JacksonMappers;

/**
 * Writes the shared vectors the browser client's Node tests check against. Maven runs it as a build
 * step before the tests ({@code process-test-classes}), into {@code
 * server/target/client-fixtures/}, so that {@code mvn verify} leaves them for the Node tests:
 *
 * <ul>
 *   <li>{@code <kind>.<format>}: the server's body for the first {@value #COUNT} objects of the
 *       default seed, plus edge values, in every format; {@code <kind>.expected.json}: the objects;
 *   <li>{@code sort-<kind>.json}: objects full of ties and non-ASCII strings, and for CM1–CM3 the
 *       order (as input indices) that Java's stable sorts give.
 * </ul>
 *
 * <p>Every format's body is checked with the tests' independent decoder before it is written.
 */
public final class ClientFixtures {
    private static final int COUNT = 25;
    private static final int SORT_VECTOR_SIZE = 120;

    private ClientFixtures() {}

    /** Writes the vectors into the directory given as the one argument. */
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: ClientFixtures <directory>");
        }
        write(Path.of(args[0]));
    }

    /** Writes every vector into {@code directory}, creating it. */
    public static void write(Path directory) throws Exception {
        Files.createDirectories(directory);
        writeKind(
                directory,
                ObjectKind.BOOKS,
                withEdges(
                        DatasetGenerator.books(
                                LabConfiguration.DatasetSettings.DEFAULT_SEED, COUNT),
                        List.of(
                                new Book(
                                        "",
                                        "é€𝄞 <&>\"'",
                                        "line\nbreak\ttab",
                                        "x",
                                        0,
                                        0f,
                                        "DIGITAL",
                                        false),
                                new Book("t", "a", "d", "i", 1000, 2000f, "PAPERBACK", true),
                                new Book("t", "a", "d", "i", 7, 0.01f, "HARDCOVER", true))));
        writeKind(
                directory,
                ObjectKind.VIDEOS,
                withEdges(
                        DatasetGenerator.videos(
                                LabConfiguration.DatasetSettings.DEFAULT_SEED, COUNT),
                        List.of(
                                new Video("", "", "ogg", 256, 144, 10, 0, false),
                                new Video("u", "t", "webm", 3840, 2160, 3600, 10_000_000, true))));
        writeSortVector(directory, ObjectKind.BOOKS, tiedBooks());
        writeSortVector(directory, ObjectKind.VIDEOS, tiedVideos());
        writeBrought(directory);
    }

    /** A brought dataset's name in the vectors. */
    static final String BROUGHT = "fixture-data";

    /**
     * A brought dataset (docs/datasets.md) with every kind of field: {@code brought.given.json},
     * its objects as given; {@code brought.description.json}, what {@code GET /api/datasets/{name}}
     * publishes of it; {@code brought.<format>}, the server's bodies; {@code sort-brought.json},
     * objects full of ties and missing values, and the orders Java's sorts give for CM1–CM3.
     */
    private static void writeBrought(Path directory) throws Exception {
        Random random = new Random(13);
        String[] words = {
            "b", "B", "a", "", "é", "\uD83D\uDE00", "a <&> \\\"q\\\"", "x\\ny\\r\\nz\\t"
        };
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < SORT_VECTOR_SIZE; i++) {
            json.append(i == 0 ? "" : ",").append("{");
            json.append("\"word\":\"").append(words[random.nextInt(words.length)]).append("\"");
            if (random.nextInt(4) > 0) {
                json.append(",\"count\":").append(random.nextInt(3) - 1);
            }
            json.append(",\"big\":")
                    .append(i % 7 == 0 ? "9007199254740993" : String.valueOf(random.nextInt(3)));
            json.append(",\"ratio\":").append(i % 5 == 0 ? "-0.0" : random.nextInt(3) * 0.5);
            if (random.nextBoolean()) {
                json.append(",\"flag\":").append(random.nextBoolean());
            }
            if (random.nextInt(3) > 0) {
                json.append(",\"user\":{\"name\":\"u").append(random.nextInt(3)).append("\"");
                json.append(",\"geo\":{\"lat\":").append(random.nextInt(90)).append(".5}}");
            }
            json.append(",\"tags\":[");
            for (int t = random.nextInt(3); t > 0; t--) {
                json.append("\"t").append(t).append(t > 1 ? "\"," : "\"");
            }
            json.append("],\"parts\":[{\"k\":").append(i).append(",\"on\":true}]}");
        }
        json.append("]");
        byte[] given = json.toString().getBytes(StandardCharsets.UTF_8);
        SchemaInference.Inferred inferred =
                SchemaInference.infer(
                        DatasetParser.parse(new ByteArrayInputStream(given), Long.MAX_VALUE));
        ObjectKind<Object[]> kind = ObjectKind.brought(BROUGHT, inferred.schema());
        Files.write(directory.resolve("brought.given.json"), given);
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("name", BROUGHT);
        description.put("objects", inferred.rows().size());
        description.put("fields", inferred.schema().describe());
        description.put(
                "sort_keys",
                kind.sortSequence().stream().map(ObjectKind.SortKey::property).toList());
        description.put(
                "protobuf",
                Map.of(
                        "message", kind.protoSchema().listMessage(),
                        "item_message", kind.protoSchema().itemMessage(),
                        "text", kind.protoSchema().text()));
        JacksonMappers.JSON
                .writerWithDefaultPrettyPrinter()
                .writeValue(directory.resolve("brought.description.json").toFile(), description);
        for (Format format : Format.values()) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            format.codec().encode(kind, inferred.rows(), body);
            Files.write(directory.resolve("brought." + format.parameter()), body.toByteArray());
        }
        ObjectNode vector = JacksonMappers.JSON.createObjectNode();
        ObjectNode orders = vector.putObject("orders");
        for (ComputationModel cm :
                List.of(ComputationModel.CM1, ComputationModel.CM2, ComputationModel.CM3)) {
            List<Object[]> sorted = cm.apply(kind, inferred.rows());
            ArrayNode indices = orders.putArray("cm" + cm.level());
            for (Object[] row : sorted) {
                indices.add(
                        IntStream.range(0, inferred.rows().size())
                                .filter(i -> inferred.rows().get(i) == row)
                                .findFirst()
                                .orElseThrow());
            }
        }
        JacksonMappers.JSON.writeValue(directory.resolve("sort-brought.json").toFile(), vector);
    }

    private static <T> List<T> withEdges(List<T> generated, List<T> edges) {
        List<T> all = new ArrayList<>(generated);
        all.addAll(edges);
        return all;
    }

    private static <T> void writeKind(Path directory, ObjectKind<T> kind, List<T> objects)
            throws Exception {
        for (Format format : Format.values()) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            new BodyWriter(1 << 16)
                    .write(
                            format.codec(),
                            kind,
                            objects,
                            Compression.NONE,
                            0,
                            new Cancellation(),
                            body,
                            soFar -> {});
            if (!IndependentDecoders.decode(format, kind, body.toByteArray()).equals(objects)) {
                throw new AssertionError(
                        kind + " as " + format.parameter() + " do not decode to what was written");
            }
            Files.write(
                    directory.resolve(kind.plural() + "." + format.parameter()),
                    body.toByteArray());
        }
        JacksonMappers.JSON
                .writerWithDefaultPrettyPrinter()
                .writeValue(directory.resolve(kind.plural() + ".expected.json").toFile(), objects);
    }

    private static <T> void writeSortVector(Path directory, ObjectKind<T> kind, List<T> input)
            throws Exception {
        ObjectNode vector = JacksonMappers.JSON.createObjectNode();
        vector.set("input", JacksonMappers.JSON.valueToTree(input));
        ObjectNode orders = vector.putObject("orders");
        for (ComputationModel cm :
                List.of(ComputationModel.CM1, ComputationModel.CM2, ComputationModel.CM3)) {
            List<T> sorted = cm.apply(kind, input);
            ArrayNode indices = orders.putArray("cm" + cm.level());
            // Objects may repeat: identify each by position, matching by identity.
            List<Integer> order =
                    sorted.stream()
                            .map(
                                    o ->
                                            IntStream.range(0, input.size())
                                                    .filter(i -> input.get(i) == o)
                                                    .findFirst()
                                                    .orElseThrow())
                            .toList();
            order.forEach(indices::add);
        }
        JacksonMappers.JSON.writeValue(
                directory.resolve("sort-" + kind.plural() + ".json").toFile(), vector);
    }

    private static List<Book> tiedBooks() {
        Random random = new Random(11);
        String[] authors = {"Ann", "ann", "Zed", "Émile", "😀 smile", "", "Ann "};
        List<Book> books = new ArrayList<>();
        for (int i = 0; i < SORT_VECTOR_SIZE; i++) {
            books.add(
                    new Book(
                            "title" + i,
                            authors[random.nextInt(authors.length)],
                            "d" + random.nextInt(3),
                            "i" + random.nextInt(2),
                            random.nextInt(4),
                            random.nextInt(4) * 0.25f + 0.01f,
                            SpecFields.BOOK_TYPES.get(random.nextInt(3)),
                            random.nextBoolean()));
        }
        return books;
    }

    private static List<Video> tiedVideos() {
        Random random = new Random(12);
        String[] titles = {"b", "B", "a", "\uFFFD", "\uD83D\uDE00", "a0"};
        List<Video> videos = new ArrayList<>();
        for (int i = 0; i < SORT_VECTOR_SIZE; i++) {
            int resolution = random.nextInt(3);
            videos.add(
                    new Video(
                            "u" + random.nextInt(3),
                            titles[random.nextInt(titles.length)],
                            SpecFields.VIDEO_FORMATS.get(random.nextInt(8)),
                            SpecFields.VIDEO_HEIGHTS.get(resolution),
                            SpecFields.VIDEO_WIDTHS.get(resolution),
                            random.nextInt(3),
                            random.nextInt(3),
                            random.nextBoolean()));
        }
        return videos;
    }
}
