package lab.responsetime.core.ingest;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import lab.responsetime.core.dataset.DatasetGenerator;
import lab.responsetime.core.dataset.ObjectKind;

/**
 * SPEC §1's Video: uri {@code https://www.youtube.com/watch?v=} + 11 characters from 0-9, A-Z, a-z;
 * title 10–30 such characters; format one of webm mkv flv mp4 avi mov wmv ogg; height one of 256 …
 * 3840 and width the one at the same position of 144 … 2160; length 10–3600; views 0–10,000,000;
 * enabled a boolean.
 */
final class VideoValidator extends ObjectValidator {
    static final List<String> FIELDS =
            List.of("uri", "title", "format", "height", "width", "length", "views", "enabled");
    private static final int URI = 0;
    private static final int TITLE = 1;
    private static final int FORMAT = 2;
    private static final int HEIGHT = 3;
    private static final int WIDTH = 4;
    private static final int LENGTH = 5;
    private static final int VIEWS = 6;
    private static final int ENABLED = 7;

    private static final int VIDEO_ID_LENGTH = 11;
    private static final int URI_LENGTH =
            DatasetGenerator.VIDEO_URI_PREFIX.length() + VIDEO_ID_LENGTH;
    private static final int MIN_LENGTH_SECONDS = 10;
    private static final int MAX_LENGTH_SECONDS = 3600;
    private static final int MAX_VIEWS = 10_000_000;
    private static final int LONGEST_FORMAT =
            DatasetGenerator.VIDEO_FORMATS.stream().mapToInt(String::length).max().orElseThrow();

    /** SPEC §1's pairs, for messages: {@code 256⇒144, 426⇒240, …}. */
    private static final String PAIRS =
            IntStream.range(0, DatasetGenerator.VIDEO_HEIGHTS.size())
                    .mapToObj(
                            i ->
                                    DatasetGenerator.VIDEO_HEIGHTS.get(i)
                                            + "⇒"
                                            + DatasetGenerator.VIDEO_WIDTHS.get(i))
                    .collect(Collectors.joining(", "));

    /** Positions of this object's height and width in SPEC §1's lists, once given. */
    private int heightAt;

    private int widthAt;

    VideoValidator(int maxObjects) {
        super(
                ObjectKind.VIDEOS,
                FIELDS,
                new FieldType[] {
                    FieldType.STRING,
                    FieldType.STRING,
                    FieldType.STRING,
                    FieldType.INTEGER,
                    FieldType.INTEGER,
                    FieldType.INTEGER,
                    FieldType.INTEGER,
                    FieldType.BOOLEAN
                },
                maxObjects);
    }

    @Override
    public int maxLength(int field) {
        return switch (field) {
            case URI -> URI_LENGTH;
            case TITLE -> 30;
            case FORMAT -> LONGEST_FORMAT;
            default -> 0;
        };
    }

    @Override
    protected void beginObject() {
        heightAt = -1;
        widthAt = -1;
    }

    @Override
    protected boolean validString(int field, CharSequence value) {
        return switch (field) {
            case URI ->
                    value.length() == URI_LENGTH
                            && Texts.startsWith(value, DatasetGenerator.VIDEO_URI_PREFIX)
                            && Texts.onlyAlphanumeric(
                                    value, DatasetGenerator.VIDEO_URI_PREFIX.length(), URI_LENGTH);
            case TITLE -> Texts.alphanumeric(value, 10, 30);
            case FORMAT -> Texts.indexOf(value, DatasetGenerator.VIDEO_FORMATS) >= 0;
            default -> false;
        };
    }

    @Override
    protected boolean validInteger(int field, long value) {
        return switch (field) {
            case HEIGHT -> (heightAt = position(DatasetGenerator.VIDEO_HEIGHTS, value)) >= 0;
            case WIDTH -> (widthAt = position(DatasetGenerator.VIDEO_WIDTHS, value)) >= 0;
            case LENGTH -> value >= MIN_LENGTH_SECONDS && value <= MAX_LENGTH_SECONDS;
            case VIEWS -> value >= 0 && value <= MAX_VIEWS;
            default -> false;
        };
    }

    private static int position(List<Integer> values, long value) {
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) == value) {
                return i;
            }
        }
        return -1;
    }

    @Override
    protected boolean validCents(int field, long cents) {
        return false;
    }

    /** Height and width pair by position (SPEC §1). */
    @Override
    protected void endOfObject() throws InvalidBodyException {
        if (heightAt != widthAt) {
            throw fieldProblem(
                    WIDTH,
                    "must be "
                            + DatasetGenerator.VIDEO_WIDTHS.get(heightAt)
                            + " for height "
                            + DatasetGenerator.VIDEO_HEIGHTS.get(heightAt)
                            + " (heights and widths pair as "
                            + PAIRS
                            + "), got "
                            + DatasetGenerator.VIDEO_WIDTHS.get(widthAt));
        }
    }

    @Override
    protected String rule(int field) {
        return switch (field) {
            case URI ->
                    "\""
                            + DatasetGenerator.VIDEO_URI_PREFIX
                            + "\" followed by "
                            + VIDEO_ID_LENGTH
                            + " characters from 0-9, A-Z, a-z";
            case TITLE -> "a string of 10–30 characters from 0-9, A-Z, a-z";
            case FORMAT -> "one of " + String.join(", ", DatasetGenerator.VIDEO_FORMATS);
            case HEIGHT ->
                    "one of "
                            + DatasetGenerator.VIDEO_HEIGHTS.stream()
                                    .map(String::valueOf)
                                    .collect(Collectors.joining(", "));
            case WIDTH ->
                    "one of "
                            + DatasetGenerator.VIDEO_WIDTHS.stream()
                                    .map(String::valueOf)
                                    .collect(Collectors.joining(", "))
                            + ", paired with the height as "
                            + PAIRS;
            case LENGTH -> "an integer from " + MIN_LENGTH_SECONDS + " to " + MAX_LENGTH_SECONDS;
            case VIEWS -> "an integer from 0 to " + MAX_VIEWS;
            case ENABLED -> "a boolean (true or false)";
            default -> throw new IllegalArgumentException("no field " + field);
        };
    }
}
