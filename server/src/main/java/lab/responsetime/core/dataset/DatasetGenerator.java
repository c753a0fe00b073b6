package lab.responsetime.core.dataset;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import lab.responsetime.api.Book;
import lab.responsetime.api.Video;

/**
 * Generates the datasets of SPEC §1 from a seeded {@link java.util.Random}.
 *
 * <p>Books draw from {@code new Random(seed)} and Videos from {@code new Random(seed + 1)}, so the
 * two types are independent streams. Within an object the values are drawn in field order (the
 * order of the SPEC's tables), one object after another. Object {@code i} therefore depends only on
 * the seed and {@code i}: the first N objects of a dataset of any size are the same, which lets
 * small test datasets stand for the large one.
 *
 * <p>Bump {@link #VERSION} whenever a rule or the order of draws changes; data files made by
 * another version are regenerated.
 */
public final class DatasetGenerator {
    /** Version of the generation rules; part of every data file's header. */
    public static final int VERSION = 1;

    /** The 62 characters random strings are made of, in this order. */
    static final String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    public static final List<String> BOOK_TYPES = List.of("DIGITAL", "HARDCOVER", "PAPERBACK");
    public static final List<String> VIDEO_FORMATS =
            List.of("webm", "mkv", "flv", "mp4", "avi", "mov", "wmv", "ogg");

    /** Heights and widths pair by position, as the source study wrote them (256 ⇒ 144, …). */
    public static final List<Integer> VIDEO_HEIGHTS =
            List.of(256, 426, 640, 854, 1280, 1920, 2560, 3840);

    public static final List<Integer> VIDEO_WIDTHS =
            List.of(144, 240, 360, 480, 720, 1080, 1440, 2160);
    public static final String VIDEO_URI_PREFIX = "https://www.youtube.com/watch?v=";

    /** Largest price in cents: prices are 0–2000 with at most two decimals. */
    private static final int MAX_PRICE_CENTS = 200_000;

    private static final int MAX_IN_STOCK = 1000;
    private static final int MIN_LENGTH_SECONDS = 10;
    private static final int MAX_LENGTH_SECONDS = 3600;
    private static final int MAX_VIEWS = 10_000_000;
    private static final int VIDEO_ID_LENGTH = 11;

    private DatasetGenerator() {}

    /** The first {@code size} objects of {@code kind} for {@code seed}. */
    @SuppressWarnings("unchecked")
    public static <T> List<T> generate(ObjectKind<T> kind, long seed, int size) {
        return (List<T>) (kind == ObjectKind.BOOKS ? books(seed, size) : videos(seed, size));
    }

    public static List<Book> books(long seed, int size) {
        Random random = new Random(seed);
        List<Book> books = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            books.add(nextBook(random));
        }
        return books;
    }

    public static List<Video> videos(long seed, int size) {
        Random random = new Random(seed + 1);
        List<Video> videos = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            videos.add(nextVideo(random));
        }
        return videos;
    }

    static Book nextBook(Random random) {
        String title = randomString(random, 10, 30);
        String author = randomString(random, 10, 20);
        String description = randomString(random, 100, 400);
        String image = randomUuid(random) + ".png";
        int numInStock = random.nextInt(MAX_IN_STOCK + 1);
        float price = random.nextInt(MAX_PRICE_CENTS + 1) / 100f;
        String type = BOOK_TYPES.get(random.nextInt(BOOK_TYPES.size()));
        boolean onSale = random.nextBoolean();
        return new Book(title, author, description, image, numInStock, price, type, onSale);
    }

    static Video nextVideo(Random random) {
        String uri = VIDEO_URI_PREFIX + randomString(random, VIDEO_ID_LENGTH, VIDEO_ID_LENGTH);
        String title = randomString(random, 10, 30);
        String format = VIDEO_FORMATS.get(random.nextInt(VIDEO_FORMATS.size()));
        int resolution = random.nextInt(VIDEO_HEIGHTS.size());
        int length =
                MIN_LENGTH_SECONDS + random.nextInt(MAX_LENGTH_SECONDS - MIN_LENGTH_SECONDS + 1);
        int views = random.nextInt(MAX_VIEWS + 1);
        boolean enabled = random.nextBoolean();
        return new Video(
                uri,
                title,
                format,
                VIDEO_HEIGHTS.get(resolution),
                VIDEO_WIDTHS.get(resolution),
                length,
                views,
                enabled);
    }

    /** A string of the 62 {@link #ALPHABET} characters, its length uniform in [min, max]. */
    static String randomString(Random random, int minLength, int maxLength) {
        int length = minLength + random.nextInt(maxLength - minLength + 1);
        byte[] chars = new byte[length];
        for (int i = 0; i < length; i++) {
            chars[i] = (byte) ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return new String(chars, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** A version-4 UUID whose random bits come from the seeded generator (36 chars). */
    static String randomUuid(Random random) {
        long most = random.nextLong();
        long least = random.nextLong();
        most = (most & ~0xF000L) | 0x4000L; // version 4
        least = (least & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L; // IETF variant
        return new UUID(most, least).toString();
    }
}
