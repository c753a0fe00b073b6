package lab.responsetime.core.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import lab.responsetime.api.Book;
import lab.responsetime.api.Video;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** docs/method.md#datasets, rule by rule, on a large sample; and determinism per seed. */
class DatasetGeneratorTest {
    private static final long SEED = 20170601L;
    private static final int SAMPLE = 200_000;
    private static final Pattern ALPHANUMERIC = Pattern.compile("[0-9A-Za-z]*");
    private static final Pattern UUID_V4_PNG =
            Pattern.compile(
                    "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\\.png");

    private static List<Book> books;
    private static List<Video> videos;

    @BeforeAll
    static void generate() {
        books = DatasetGenerator.books(SEED, SAMPLE);
        videos = DatasetGenerator.videos(SEED, SAMPLE);
    }

    @Test
    void booksObeyEveryRule() {
        assertThat(books).hasSize(SAMPLE);
        assertRandomStrings(books, Book::title, 10, 30);
        assertRandomStrings(books, Book::author, 10, 20);
        assertRandomStrings(books, Book::description, 100, 400);
        assertEach(
                books,
                "image: a UUID v4 .png, 40 characters",
                b -> b.image().length() == 40 && UUID_V4_PNG.matcher(b.image()).matches());
        assertThat(books.stream().map(Book::image).distinct().count()).isEqualTo(SAMPLE);
        assertIntRange(books, Book::numInStock, 0, 1000);
        assertEach(
                books,
                "price: 0 to 2,000.00, at most 2 decimals",
                b -> {
                    long cents = Math.round(b.price() * 100.0);
                    return cents >= 0 && cents <= 200_000 && cents / 100f == b.price();
                });
        assertThat(books.stream().mapToLong(b -> Math.round(b.price() * 100.0)).max().getAsLong())
                .isGreaterThan(199_000L);
        assertThat(books.stream().map(Book::type).distinct())
                .containsExactlyInAnyOrder("DIGITAL", "HARDCOVER", "PAPERBACK");
        assertThat(books.stream().map(Book::onSale).distinct())
                .containsExactlyInAnyOrder(true, false);
    }

    @Test
    void videosObeyEveryRule() {
        assertThat(videos).hasSize(SAMPLE);
        assertEach(
                videos,
                "uri: https://www.youtube.com/watch?v= and 11 letters or digits",
                v ->
                        v.uri().length() == 43
                                && v.uri().startsWith("https://www.youtube.com/watch?v=")
                                && ALPHANUMERIC.matcher(v.uri().substring(32)).matches());
        assertRandomStrings(videos, Video::title, 10, 30);
        assertThat(videos.stream().map(Video::format).distinct())
                .containsExactlyInAnyOrder("webm", "mkv", "flv", "mp4", "avi", "mov", "wmv", "ogg");
        List<Integer> heights = List.of(256, 426, 640, 854, 1280, 1920, 2560, 3840);
        List<Integer> widths = List.of(144, 240, 360, 480, 720, 1080, 1440, 2160);
        assertEach(
                videos,
                "width: the one that goes with the height",
                v ->
                        heights.contains(v.height())
                                && v.width() == widths.get(heights.indexOf(v.height())));
        assertThat(videos.stream().map(Video::height).distinct())
                .containsExactlyInAnyOrderElementsOf(heights);
        assertIntRange(videos, Video::length, 10, 3600);
        assertIntRange(videos, Video::views, 0, 10_000_000);
        assertThat(videos.stream().map(Video::enabled).distinct())
                .containsExactlyInAnyOrder(true, false);
    }

    @Test
    void sameSeedGivesSameObjectsAndPrefixesAgree() {
        assertThat(DatasetGenerator.books(SEED, 5_000)).isEqualTo(books.subList(0, 5_000));
        assertThat(DatasetGenerator.videos(SEED, 5_000)).isEqualTo(videos.subList(0, 5_000));
    }

    @Test
    void otherSeedGivesOtherObjects() {
        List<Book> other = DatasetGenerator.books(SEED + 7, 1_000);
        assertThat(other.get(0)).isNotEqualTo(books.get(0));
        assertThat(new HashSet<>(other)).doesNotContainAnyElementsOf(books.subList(0, 1_000));
    }

    /** Locks the generation rules: if this changes, bump DatasetGenerator.VERSION. */
    @Test
    void defaultSeedStillGivesTheKnownFirstObjects() {
        assertThat(books.get(0).title()).isEqualTo("0tNfQyrrjcLtiy9");
        assertThat(books.get(0).price()).isEqualTo(1474.48f);
        assertThat(videos.get(0).uri()).isEqualTo("https://www.youtube.com/watch?v=24f0QqIFZzk");
        assertThat(videos.get(0).views()).isEqualTo(5492621);
    }

    private static <T> void assertRandomStrings(
            List<T> objects, Function<T, String> field, int min, int max) {
        Set<Integer> lengths = new HashSet<>();
        Set<Character> characters = new HashSet<>();
        assertEach(
                objects,
                "a string of " + min + " to " + max + " letters and digits",
                o -> {
                    String value = field.apply(o);
                    lengths.add(value.length());
                    for (char c : value.toCharArray()) {
                        characters.add(c);
                    }
                    return value.length() >= min
                            && value.length() <= max
                            && ALPHANUMERIC.matcher(value).matches();
                });
        assertThat(lengths).as("every length in [%d, %d] occurs", min, max).hasSize(max - min + 1);
        assertThat(characters).as("all 62 characters occur").hasSize(62);
    }

    /**
     * Every object holds `rule`: checked without an assertion object per element (the sample is
     * 200,000 objects), the first few that break it named in the failure.
     */
    private static <T> void assertEach(List<T> objects, String rule, Predicate<T> holds) {
        List<T> breaking = new ArrayList<>();
        for (T object : objects) {
            if (!holds.test(object) && breaking.size() < 5) {
                breaking.add(object);
            }
        }
        assertThat(breaking).as(rule).isEmpty();
    }

    private static <T> void assertIntRange(
            List<T> objects, Function<T, Integer> field, int min, int max) {
        int lowest = objects.stream().map(field).min(Integer::compare).orElseThrow();
        int highest = objects.stream().map(field).max(Integer::compare).orElseThrow();
        assertThat(lowest).isGreaterThanOrEqualTo(min);
        assertThat(highest).isLessThanOrEqualTo(max);
        assertThat(highest - lowest)
                .as("values spread over the range")
                .isGreaterThan((max - min) * 9 / 10);
    }
}
