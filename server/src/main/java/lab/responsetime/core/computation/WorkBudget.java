package lab.responsetime.core.computation;

import java.util.Locale;
import lab.responsetime.core.dataset.ObjectKind;

/**
 * The most sorting work the server accepts for one request, in the units of {@link
 * ComputationModel#estimatedWork}: sorts × N·log2 N. Requests above it are refused before any work
 * starts. All arithmetic is in {@code double} (exact for every integer below 2⁵³), so no count can
 * overflow the estimate.
 */
public final class WorkBudget {
    private final double maxSortWork;

    public WorkBudget(double maxSortWork) {
        if (!(maxSortWork > 0) || Double.isInfinite(maxSortWork)) {
            throw new IllegalArgumentException(
                    "maxSortWork must be a positive finite number, got " + maxSortWork);
        }
        this.maxSortWork = maxSortWork;
    }

    public double maxSortWork() {
        return maxSortWork;
    }

    /** Whether {@code cm} on {@code count} objects of {@code kind} is within the budget. */
    public boolean admits(ObjectKind<?> kind, ComputationModel cm, int count) {
        return cm.estimatedWork(kind, count) <= maxSortWork;
    }

    /**
     * The largest count in [1, {@code upperBound}] that the budget admits at {@code cm}. The
     * estimate grows with the count, so a binary search finds it.
     */
    public int maxCount(ObjectKind<?> kind, ComputationModel cm, int upperBound) {
        int low = 1;
        int high = upperBound;
        while (low < high) {
            int middle = (int) ((low + (long) high + 1) / 2);
            if (admits(kind, cm, middle)) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        return low;
    }

    /**
     * Returns the estimated work of {@code cm} on {@code count} objects, or refuses it.
     *
     * @param upperBound the largest count anyone may ask for (the dataset size), named in the
     *     refusal
     * @throws WorkTooLargeException when the estimate is above the budget
     */
    public double check(ObjectKind<?> kind, ComputationModel cm, int count, int upperBound)
            throws WorkTooLargeException {
        double work = cm.estimatedWork(kind, count);
        if (work > maxSortWork) {
            throw new WorkTooLargeException(
                    String.format(
                            Locale.ROOT,
                            "cm=%d on %d %s needs an estimated %,.0f units of sorting work (%d"
                                + " sorts × N·log2 N), more than this server's limit of %,.0f"
                                + " (computation.maxSortWork). At cm=%d the limit allows count up"
                                + " to %d; or use a lower cm.",
                            cm.level(),
                            count,
                            kind,
                            work,
                            cm.sorts(kind),
                            maxSortWork,
                            cm.level(),
                            maxCount(kind, cm, upperBound)));
        }
        return work;
    }
}
