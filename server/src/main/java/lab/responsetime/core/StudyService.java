package lab.responsetime.core;

import java.util.List;
import java.util.Locale;
import lab.responsetime.core.computation.ComputationLimiter;
import lab.responsetime.core.computation.ComputationLimiter.OverCapacityException;
import lab.responsetime.core.computation.ComputationModel;
import lab.responsetime.core.dataset.Dataset;
import lab.responsetime.core.dataset.Datasets;

/**
 * Prepares the objects of an answer: takes the first N of the dataset and runs the computation
 * model on them, refusing work that is too large and queueing work beyond the limiter's slots.
 */
public final class StudyService {
    /** Suggested wait while a dataset is still loading. */
    private static final long LOADING_RETRY_AFTER_SECONDS = 5;

    private final Datasets datasets;
    private final ComputationLimiter limiter;
    private final double maxSortWork;

    public StudyService(Datasets datasets, ComputationLimiter limiter, double maxSortWork) {
        this.datasets = datasets;
        this.limiter = limiter;
        this.maxSortWork = maxSortWork;
    }

    public Datasets datasets() {
        return datasets;
    }

    public ComputationLimiter limiter() {
        return limiter;
    }

    /** The objects to send, in order, with the time spent waiting for a slot and sorting. */
    public record Prepared<T>(List<T> objects, long queueNanos, long sortNanos) {
    }

    public <T> Prepared<T> prepare(StudyRequest<T> request)
            throws UnavailableException, WorkTooLargeException, OverCapacityException, InterruptedException {
        Dataset<T> dataset = datasets.get(request.kind());
        List<T> all = dataset.objects().orElseThrow(() -> new UnavailableException(
                "The " + request.kind() + " dataset is not loaded yet (" + dataset.status() + ").",
                LOADING_RETRY_AFTER_SECONDS));
        List<T> first = all.subList(0, request.count());
        ComputationModel cm = request.cm();
        if (cm == ComputationModel.CM0) {
            return new Prepared<>(first, 0, 0);
        }
        double work = cm.estimatedWork(request.kind(), request.count());
        if (work > maxSortWork) {
            throw new WorkTooLargeException(String.format(Locale.ROOT,
                    "cm=%d on %d %s needs an estimated %,.0f units of sorting work (%d sorts × N·log2 N), "
                            + "more than this server's limit of %,.0f (computation.maxSortWork). "
                            + "At cm=%d the limit allows count up to %d; or use a lower cm.",
                    cm.level(), request.count(), request.kind(), work, cm.sorts(request.kind()), maxSortWork,
                    cm.level(), cm.maxCountWithin(request.kind(), maxSortWork, datasets.size())));
        }
        try (ComputationLimiter.Slot slot = limiter.acquire(work)) {
            long started = System.nanoTime();
            List<T> sorted = cm.apply(request.kind(), first);
            return new Prepared<>(sorted, slot.waitedNanos(), System.nanoTime() - started);
        }
    }

    /** The data cannot be served now; retry later. */
    public static final class UnavailableException extends Exception {
        private final long retryAfterSeconds;

        UnavailableException(String message, long retryAfterSeconds) {
            super(message);
            this.retryAfterSeconds = retryAfterSeconds;
        }

        public long retryAfterSeconds() {
            return retryAfterSeconds;
        }
    }

    /** The computation asked for is larger than the server accepts. */
    public static final class WorkTooLargeException extends Exception {
        WorkTooLargeException(String message) {
            super(message);
        }
    }
}
