package lab.responsetime.core;

import java.util.List;
import lab.responsetime.core.computation.Admission;
import lab.responsetime.core.computation.CancelledException;
import lab.responsetime.core.computation.ClientPresence;
import lab.responsetime.core.computation.ComputationLimiter;
import lab.responsetime.core.computation.ComputationLimiter.OverCapacityException;
import lab.responsetime.core.computation.ComputationModel;
import lab.responsetime.core.computation.WorkBudget;
import lab.responsetime.core.computation.WorkTooLargeException;
import lab.responsetime.core.dataset.Dataset;
import lab.responsetime.core.dataset.Datasets;

/**
 * Prepares the objects of an answer: takes the first N of the dataset and runs the computation
 * model on them, refusing work above the budget before anything else, queueing work beyond the
 * limiter's slots, and stopping work whose client has gone. A heavy compression level takes a slot
 * too, held (with the watch on the client) until the body is written.
 */
public final class StudyService {
    /** Suggested wait while a dataset is still loading. */
    private static final long LOADING_RETRY_AFTER_SECONDS = 5;

    private final Datasets datasets;
    private final ComputationLimiter limiter;
    private final WorkBudget budget;

    public StudyService(Datasets datasets, ComputationLimiter limiter, WorkBudget budget) {
        this.datasets = datasets;
        this.limiter = limiter;
        this.budget = budget;
    }

    public Datasets datasets() {
        return datasets;
    }

    /**
     * The objects to send, in order, with the time spent waiting for a slot and sorting.
     *
     * @param admission what the body's writing holds and closes: the slot and the watch of a heavy
     *     compression, or {@link Admission#none()}
     */
    public record Prepared<T>(
            List<T> objects, long queueNanos, long sortNanos, Admission admission) {}

    /**
     * Says whether {@link #prepare} would take this request, without doing its work or taking a
     * computation slot (for HEAD): its computation is within the budget and its dataset is loaded.
     */
    public <T> void check(StudyRequest<T> request)
            throws WorkTooLargeException, UnavailableException {
        budget.check(
                request.kind(), request.cm(), request.count(), datasets.sizeOf(request.kind()));
        loaded(request);
    }

    /**
     * The objects of {@code request}, sorted by its computation model.
     *
     * @param client watched while the request waits for a slot and while it sorts, and for a heavy
     *     compression until its body is written: if the client goes, the work stops
     * @throws CancelledException when the client went away, or the server is shutting down
     */
    public <T> Prepared<T> prepare(StudyRequest<T> request, ClientPresence client)
            throws WorkTooLargeException,
                    UnavailableException,
                    OverCapacityException,
                    CancelledException,
                    InterruptedException {
        ComputationModel cm = request.cm();
        double work =
                budget.check(request.kind(), cm, request.count(), datasets.sizeOf(request.kind()));
        List<T> first = loaded(request).subList(0, request.count());
        if (!request.needsSlot()) {
            return new Prepared<>(first, 0, 0, Admission.none());
        }
        Admission admission = Admission.take(limiter, work, client);
        boolean heldForTheBody = false;
        try {
            long started = System.nanoTime();
            List<T> sorted = cm.apply(request.kind(), first, admission.cancellation());
            long sortNanos = System.nanoTime() - started;
            admission.sortingDone();
            heldForTheBody = request.heavyCompression();
            return new Prepared<>(
                    sorted,
                    admission.waitedNanos(),
                    sortNanos,
                    heldForTheBody ? admission : Admission.none());
        } finally {
            if (!heldForTheBody) {
                admission.close();
            }
        }
    }

    private <T> List<T> loaded(StudyRequest<T> request) throws UnavailableException {
        Dataset<T> dataset = datasets.get(request.kind());
        return dataset.objects()
                .orElseThrow(
                        () ->
                                new UnavailableException(
                                        "The "
                                                + request.kind()
                                                + " dataset is not loaded yet ("
                                                + dataset.status()
                                                + ").",
                                        LOADING_RETRY_AFTER_SECONDS));
    }
}
