package lab.responsetime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.computation.CancelledException;
import lab.responsetime.core.computation.ClientPresence;
import lab.responsetime.core.computation.ComputationLimiter;
import lab.responsetime.core.computation.ComputationModel;
import lab.responsetime.core.computation.WorkBudget;
import lab.responsetime.core.computation.WorkTooLargeException;
import lab.responsetime.core.dataset.Dataset;
import lab.responsetime.core.dataset.DatasetGenerator;
import lab.responsetime.core.dataset.Datasets;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Format;
import org.junit.jupiter.api.Test;

class StudyServiceTest {
    private final ComputationLimiter limiter = new ComputationLimiter(1, 0, Duration.ofSeconds(1));
    private final Datasets loaded =
            new Datasets(
                    1,
                    100,
                    Dataset.of(ObjectKind.BOOKS, DatasetGenerator.books(1, 100)),
                    Dataset.of(ObjectKind.VIDEOS, DatasetGenerator.videos(1, 100)));

    @Test
    void aDatasetStillLoadingAnswers503WithItsStatus() {
        StudyService service =
                new StudyService(Datasets.loading(1, 100), limiter, new WorkBudget(1e9));
        assertThatThrownBy(
                        () ->
                                service.prepare(
                                        request(ObjectKind.VIDEOS, 5, ComputationModel.CM0),
                                        ClientPresence.UNKNOWN))
                .isInstanceOf(UnavailableException.class)
                .hasMessageContaining("videos dataset is not loaded yet");
    }

    @Test
    void workAboveTheBudgetIsRefusedBeforeAnythingElseEvenWhileLoading() {
        StudyService service =
                new StudyService(Datasets.loading(1, 100), limiter, new WorkBudget(10));
        assertThatThrownBy(
                        () ->
                                service.prepare(
                                        request(ObjectKind.BOOKS, 100, ComputationModel.CM5),
                                        ClientPresence.UNKNOWN))
                .isInstanceOf(WorkTooLargeException.class);
        assertThatThrownBy(
                        () -> service.check(request(ObjectKind.BOOKS, 100, ComputationModel.CM5)))
                .isInstanceOf(WorkTooLargeException.class);
    }

    @Test
    void cm0SendsTheFirstObjectsWithoutTakingASlotOrWatchingTheClient() throws Exception {
        StudyService service = new StudyService(loaded, limiter, new WorkBudget(1e9));
        AtomicInteger watches = new AtomicInteger();
        ClientPresence counting =
                cancellation -> {
                    watches.incrementAndGet();
                    return () -> {};
                };
        try (ComputationLimiter.Slot busy = limiter.acquire(1)) {
            StudyService.Prepared<?> prepared =
                    service.prepare(request(ObjectKind.BOOKS, 7, ComputationModel.CM0), counting);
            assertThat(prepared.objects()).isEqualTo(DatasetGenerator.books(1, 7));
            assertThat(prepared.sortNanos()).isZero();
            assertThat(watches).hasValue(0);
            assertThatThrownBy(
                            () ->
                                    service.prepare(
                                            request(ObjectKind.BOOKS, 7, ComputationModel.CM1),
                                            counting))
                    .isInstanceOf(ComputationLimiter.OverCapacityException.class);
        }
    }

    @Test
    void aClientThatLeavesStopsItsComputationAndFreesTheSlot() throws Exception {
        StudyService service = new StudyService(loaded, limiter, new WorkBudget(1e9));
        AtomicInteger closed = new AtomicInteger();
        ClientPresence gone =
                cancellation -> {
                    cancellation.cancel("the client closed the connection");
                    return closed::incrementAndGet;
                };
        assertThatThrownBy(
                        () ->
                                service.prepare(
                                        request(ObjectKind.BOOKS, 100, ComputationModel.CM4), gone))
                .isInstanceOf(CancelledException.class)
                .hasMessage("the client closed the connection");
        assertThat(closed).as("the watch is closed").hasValue(1);
        assertThat(limiter.admitted()).isZero();
        StudyService.Prepared<?> prepared =
                service.prepare(
                        request(ObjectKind.BOOKS, 100, ComputationModel.CM1),
                        ClientPresence.UNKNOWN);
        assertThat(prepared.objects()).hasSize(100);
        assertThat(closed).hasValue(1);
    }

    @Test
    void aHeavyCompressionHoldsASlotAndItsWatchUntilItsBodyIsDoneALighterOneTakesNone()
            throws Exception {
        StudyService service = new StudyService(loaded, limiter, new WorkBudget(1e9));
        AtomicInteger watches = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        ClientPresence counting =
                cancellation -> {
                    watches.incrementAndGet();
                    return closed::incrementAndGet;
                };
        service.prepare(compressed(Compression.BR, 9, ComputationModel.CM0), counting)
                .admission()
                .close();
        assertThat(watches).as("brotli 9 is not heavy").hasValue(0);

        StudyService.Prepared<?> heavy =
                service.prepare(compressed(Compression.BR, 10, ComputationModel.CM0), counting);
        assertThat(limiter.running()).isEqualTo(1);
        assertThat(heavy.admission().cancellation().isCancelled()).isFalse();
        assertThat(closed).as("watched while the body is written").hasValue(0);
        assertThatThrownBy(
                        () ->
                                service.prepare(
                                        request(ObjectKind.BOOKS, 7, ComputationModel.CM1),
                                        counting))
                .isInstanceOf(ComputationLimiter.OverCapacityException.class);
        heavy.admission().close();
        assertThat(limiter.admitted()).isZero();
        assertThat(closed).hasValue(2);

        StudyService.Prepared<?> sortedToo =
                service.prepare(compressed(Compression.ZSTD, 19, ComputationModel.CM2), counting);
        assertThat(sortedToo.objects())
                .isEqualTo(
                        ComputationModel.CM2.apply(
                                ObjectKind.BOOKS, DatasetGenerator.books(1, 100)));
        assertThat(limiter.running())
                .as("one slot for the sorting and the compression")
                .isEqualTo(1);
        sortedToo.admission().close();
        assertThat(limiter.admitted()).isZero();
    }

    @Test
    void headChecksWithoutWorking() throws Exception {
        StudyService service = new StudyService(loaded, limiter, new WorkBudget(1e9));
        try (ComputationLimiter.Slot busy = limiter.acquire(1)) {
            service.check(request(ObjectKind.VIDEOS, 100, ComputationModel.CM5));
        }
        assertThatThrownBy(
                        () ->
                                new StudyService(
                                                Datasets.loading(1, 100),
                                                limiter,
                                                new WorkBudget(1e9))
                                        .check(request(ObjectKind.VIDEOS, 1, ComputationModel.CM0)))
                .isInstanceOf(UnavailableException.class);
    }

    private static <T> StudyRequest<T> request(ObjectKind<T> kind, int count, ComputationModel cm) {
        return new StudyRequest<>(kind, count, Format.JSON, Compression.NONE, 0, cm);
    }

    private static StudyRequest<?> compressed(
            Compression compression, int level, ComputationModel cm) {
        return new StudyRequest<>(ObjectKind.BOOKS, 100, Format.JSON, compression, level, cm);
    }
}
