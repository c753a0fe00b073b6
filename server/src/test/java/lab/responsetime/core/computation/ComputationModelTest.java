package lab.responsetime.core.computation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import lab.responsetime.api.Book;
import lab.responsetime.api.Video;
import lab.responsetime.core.dataset.DatasetGenerator;
import lab.responsetime.core.dataset.ObjectKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * CM1–CM5 give the order docs/method.md, computation models defines, stably. The expected orders
 * are built independently: a sequence of stable ascending sorts equals one sort by the keys in
 * reverse sequence order (the last sort is the most significant key), ties kept in input order.
 */
class ComputationModelTest {
    private static final int N = 400;

    /** Generated objects with many ties: values drawn from small pools, so every key repeats. */
    private static final List<Book> BOOKS = tiedBooks();

    private static final List<Video> VIDEOS = tiedVideos();

    /**
     * Book CM2 keys, most significant first: onSale, type, numInStock, price, image, description,
     * author.
     */
    private static final Comparator<Book> BOOK_ORDER =
            Comparator.comparing(Book::onSale)
                    .thenComparing(Book::type)
                    .thenComparingInt(Book::numInStock)
                    .thenComparingDouble(Book::price)
                    .thenComparing(Book::image)
                    .thenComparing(Book::description)
                    .thenComparing(Book::author);

    /**
     * Video CM2 keys, most significant first: enabled, views, length, width, height, format, uri,
     * title.
     */
    private static final Comparator<Video> VIDEO_ORDER =
            Comparator.comparing(Video::enabled)
                    .thenComparingInt(Video::views)
                    .thenComparingInt(Video::length)
                    .thenComparingInt(Video::width)
                    .thenComparingInt(Video::height)
                    .thenComparing(Video::format)
                    .thenComparing(Video::uri)
                    .thenComparing(Video::title);

    @Test
    void cm0LeavesTheOrderAlone() {
        assertThat(ComputationModel.CM0.apply(ObjectKind.BOOKS, BOOKS)).isSameAs(BOOKS);
    }

    @Test
    void cm1SortsBooksByAuthorAndVideosByTitleStably() {
        assertThat(ComputationModel.CM1.apply(ObjectKind.BOOKS, BOOKS))
                .containsExactlyElementsOf(stableOrder(BOOKS, Comparator.comparing(Book::author)));
        assertThat(ComputationModel.CM1.apply(ObjectKind.VIDEOS, VIDEOS))
                .containsExactlyElementsOf(stableOrder(VIDEOS, Comparator.comparing(Video::title)));
    }

    @ParameterizedTest
    @EnumSource(
            value = ComputationModel.class,
            names = {"CM2", "CM3", "CM4", "CM5"})
    void cm2AndItsRepetitionsGiveTheLexicographicOrderStably(ComputationModel cm) {
        assertThat(cm.apply(ObjectKind.BOOKS, BOOKS))
                .containsExactlyElementsOf(stableOrder(BOOKS, BOOK_ORDER));
        assertThat(cm.apply(ObjectKind.VIDEOS, VIDEOS))
                .containsExactlyElementsOf(stableOrder(VIDEOS, VIDEO_ORDER));
    }

    @Test
    void sortsFollowTheSpecSequence() {
        assertThat(ComputationModel.CM2.steps(ObjectKind.BOOKS))
                .extracting(ObjectKind.SortKey::property)
                .containsExactly(
                        "author", "description", "image", "price", "numInStock", "type", "onSale");
        assertThat(ComputationModel.CM2.steps(ObjectKind.VIDEOS))
                .extracting(ObjectKind.SortKey::property)
                .containsExactly(
                        "title", "uri", "format", "height", "width", "length", "views", "enabled");
        assertThat(ComputationModel.CM1.sorts(ObjectKind.BOOKS)).isEqualTo(1);
        assertThat(ComputationModel.CM3.sorts(ObjectKind.BOOKS)).isEqualTo(70);
        assertThat(ComputationModel.CM4.sorts(ObjectKind.VIDEOS)).isEqualTo(800);
        assertThat(ComputationModel.CM5.sorts(ObjectKind.BOOKS)).isEqualTo(7000);
        assertThat(ComputationModel.CM5.steps(ObjectKind.BOOKS)).hasSize(7000);
    }

    @Test
    void stringsCompareByUtf16CodeUnitsNotLocale() {
        List<Book> books = new ArrayList<>();
        for (String author :
                List.of("b", "B", "a", "Z", "é", "\uD83D\uDE00", "\uFFFD", "a0", "A")) {
            books.add(new Book("t", author, "d", "i", 0, 0f, "DIGITAL", false));
        }
        assertThat(ComputationModel.CM1.apply(ObjectKind.BOOKS, books))
                .extracting(Book::author)
                .containsExactly("A", "B", "Z", "a", "a0", "b", "é", "\uD83D\uDE00", "\uFFFD");
    }

    @Test
    void inputIsNotChanged() {
        List<Book> copy = List.copyOf(BOOKS);
        ComputationModel.CM3.apply(ObjectKind.BOOKS, BOOKS);
        assertThat(BOOKS).isEqualTo(copy);
    }

    @Test
    void defaultBudgetAdmitsTheSourcesLargestCellAndRefusesCm5OnAHundredThousand() {
        double budget = new lab.responsetime.LabConfiguration().getComputation().getMaxSortWork();
        assertThat(ComputationModel.CM5.estimatedWork(ObjectKind.BOOKS, 10_000)).isLessThan(budget);
        assertThat(ComputationModel.CM5.estimatedWork(ObjectKind.VIDEOS, 10_000))
                .isLessThan(budget);
        assertThat(ComputationModel.CM4.estimatedWork(ObjectKind.VIDEOS, 100_000))
                .isLessThan(budget);
        assertThat(ComputationModel.CM5.estimatedWork(ObjectKind.BOOKS, 100_000))
                .isGreaterThan(budget);
        assertThat(ComputationModel.CM0.estimatedWork(ObjectKind.BOOKS, 1_000_000)).isZero();
        assertThat(ComputationModel.CM5.estimatedWork(ObjectKind.BOOKS, 1)).isZero();
    }

    @Test
    void cancellationStopsBeforeTheNextSort() {
        Cancellation cancellation = new Cancellation();
        cancellation.cancel("gone");
        assertThatThrownBy(() -> ComputationModel.CM3.apply(ObjectKind.BOOKS, BOOKS, cancellation))
                .isInstanceOf(CancelledException.class)
                .hasMessage("gone");
        assertThat(ComputationModel.CM0.apply(ObjectKind.BOOKS, BOOKS))
                .as("CM0 has no work to stop")
                .isSameAs(BOOKS);
    }

    @Test
    void cancellationStopsALargeListWithinOneSort() throws Exception {
        List<Book> many = DatasetGenerator.books(3, ComputationModel.CHECK_WITHIN_SORT_COUNT);
        // Asked once before the sort starts, then once per comparison: it turns true mid-sort.
        CancelsAfter midSort = new CancelsAfter(1_000);
        assertThatThrownBy(() -> ComputationModel.CM1.apply(ObjectKind.BOOKS, many, midSort))
                .isInstanceOf(CancelledException.class);
        assertThat(midSort.asked)
                .as("turned true at the 1,001st question, inside the sort; one more to raise")
                .isEqualTo(1_002);
        assertThat(ComputationModel.CM1.apply(ObjectKind.BOOKS, many, new Cancellation()))
                .as("uncancelled, the checked sort gives the plain sort's order")
                .isEqualTo(stableOrder(many, Comparator.comparing(Book::author)));
    }

    @Test
    void smallListsAreSortedWithoutAPerComparisonCheck() throws Exception {
        CancelsAfter never = new CancelsAfter(Integer.MAX_VALUE);
        ComputationModel.CM3.apply(ObjectKind.BOOKS, BOOKS, never);
        assertThat(never.asked)
                .as("once before each of the 70 sorts and once at the end")
                .isEqualTo(71);
    }

    /** Says "cancelled" from its {@code limit + 1}-th question on. */
    private static final class CancelsAfter extends Cancellation {
        private final int limit;
        int asked;

        CancelsAfter(int limit) {
            this.limit = limit;
        }

        @Override
        public boolean isCancelled() {
            return ++asked > limit;
        }
    }

    private static <T> List<T> stableOrder(List<T> objects, Comparator<T> order) {
        return IntStream.range(0, objects.size())
                .boxed()
                .sorted(Comparator.<Integer, T>comparing(objects::get, order).thenComparing(i -> i))
                .map(objects::get)
                .toList();
    }

    private static List<Book> tiedBooks() {
        Random random = new Random(5);
        List<Book> generated = DatasetGenerator.books(1, N);
        List<Book> books = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            Book b = generated.get(i);
            books.add(
                    new Book(
                            "title" + i,
                            pick(random, "Ann", "Bob", "Cy"),
                            pick(random, "d1", "d2"),
                            pick(random, "i1", "i2"),
                            random.nextInt(3),
                            random.nextInt(3) / 2f,
                            b.type(),
                            b.onSale()));
        }
        return List.copyOf(books);
    }

    private static List<Video> tiedVideos() {
        Random random = new Random(6);
        List<Video> generated = DatasetGenerator.videos(1, N);
        List<Video> videos = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            Video v = generated.get(i);
            videos.add(
                    new Video(
                            pick(random, "u1", "u2"),
                            pick(random, "T1", "T2", "T3"),
                            v.format(),
                            v.height(),
                            v.width(),
                            random.nextInt(3),
                            random.nextInt(2),
                            v.enabled()));
        }
        return List.copyOf(videos);
    }

    private static String pick(Random random, String... values) {
        return values[random.nextInt(values.length)];
    }
}
