package lab.responsetime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import lab.responsetime.core.computation.ComputationLimiter;
import lab.responsetime.core.computation.ComputationModel;
import lab.responsetime.core.dataset.Dataset;
import lab.responsetime.core.dataset.DatasetGenerator;
import lab.responsetime.core.dataset.Datasets;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Compression;
import lab.responsetime.core.formats.Format;
import org.junit.jupiter.api.Test;

class StudyServiceTest {
    private final ComputationLimiter limiter = new ComputationLimiter(1, 0, Duration.ofSeconds(1));

    @Test
    void aDatasetStillLoadingAnswers503WithItsStatus() {
        StudyService service = new StudyService(Datasets.loading(1, 100), limiter, 1e9);
        assertThatThrownBy(() -> service.prepare(request(ObjectKind.VIDEOS, 5, ComputationModel.CM0)))
                .isInstanceOf(StudyService.UnavailableException.class)
                .hasMessageContaining("videos dataset is not loaded yet");
    }

    @Test
    void cm0SendsTheFirstObjectsWithoutTakingASlot() throws Exception {
        Datasets datasets = new Datasets(1, 100, Dataset.of(ObjectKind.BOOKS, DatasetGenerator.books(1, 100)),
                Dataset.of(ObjectKind.VIDEOS, DatasetGenerator.videos(1, 100)));
        StudyService service = new StudyService(datasets, limiter, 1e9);
        try (ComputationLimiter.Slot busy = limiter.acquire(1)) {
            StudyService.Prepared<?> prepared = service.prepare(request(ObjectKind.BOOKS, 7, ComputationModel.CM0));
            assertThat(prepared.objects()).isEqualTo(DatasetGenerator.books(1, 7));
            assertThat(prepared.sortNanos()).isZero();
            assertThatThrownBy(() -> service.prepare(request(ObjectKind.BOOKS, 7, ComputationModel.CM1)))
                    .isInstanceOf(ComputationLimiter.OverCapacityException.class);
        }
    }

    private static <T> StudyRequest<T> request(ObjectKind<T> kind, int count, ComputationModel cm) {
        return new StudyRequest<>(kind, count, Format.JSON, Compression.NONE, cm);
    }
}
