package lab.responsetime.core.dataset;

import java.util.List;

/**
 * docs/method.md#datasets's two field tables, Book's and Video's, in the method's (docs/method.md)
 * order (which is also the order of draws, of every format's fields and of protobuf's field
 * numbers), and the value lists their rules choose from.
 */
public final class SpecFields {
    public static final List<String> BOOK_TYPES = List.of("DIGITAL", "HARDCOVER", "PAPERBACK");
    public static final List<String> VIDEO_FORMATS =
            List.of("webm", "mkv", "flv", "mp4", "avi", "mov", "wmv", "ogg");

    /** Heights and widths pair by position, as the source study wrote them (256 ⇒ 144, …). */
    public static final List<Integer> VIDEO_HEIGHTS =
            List.of(256, 426, 640, 854, 1280, 1920, 2560, 3840);

    public static final List<Integer> VIDEO_WIDTHS =
            List.of(144, 240, 360, 480, 720, 1080, 1440, 2160);
    public static final String VIDEO_URI_PREFIX = "https://www.youtube.com/watch?v=";

    /** Characters of a video's id after {@link #VIDEO_URI_PREFIX}. */
    private static final int VIDEO_ID_LENGTH = 11;

    /** Largest price in cents: prices are 0–2000 with at most two decimals. */
    private static final int MAX_PRICE_CENTS = 200_000;

    public static final List<Field> BOOK =
            List.of(
                    new Field("title", new FieldRule.Alphanumeric(10, 30)),
                    new Field("author", new FieldRule.Alphanumeric(10, 20)),
                    new Field("description", new FieldRule.Alphanumeric(100, 400)),
                    new Field("image", new FieldRule.UuidWithSuffix(".png")),
                    new Field("numInStock", new FieldRule.IntegerRange(0, 1000)),
                    new Field("price", new FieldRule.Cents(MAX_PRICE_CENTS)),
                    new Field("type", new FieldRule.OneOfStrings(BOOK_TYPES)),
                    new Field("onSale", new FieldRule.AnyBoolean()));

    public static final List<Field> VIDEO =
            List.of(
                    new Field(
                            "uri",
                            new FieldRule.PrefixedAlphanumeric(VIDEO_URI_PREFIX, VIDEO_ID_LENGTH)),
                    new Field("title", new FieldRule.Alphanumeric(10, 30)),
                    new Field("format", new FieldRule.OneOfStrings(VIDEO_FORMATS)),
                    new Field("height", new FieldRule.OneOfIntegers(VIDEO_HEIGHTS)),
                    new Field(
                            "width",
                            new FieldRule.PairedInteger("height", VIDEO_HEIGHTS, VIDEO_WIDTHS)),
                    new Field("length", new FieldRule.IntegerRange(10, 3600)),
                    new Field("views", new FieldRule.IntegerRange(0, 10_000_000)),
                    new Field("enabled", new FieldRule.AnyBoolean()));

    private SpecFields() {}
}
