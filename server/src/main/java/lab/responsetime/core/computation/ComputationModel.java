package lab.responsetime.core.computation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.dataset.ObjectKind.SortKey;

/**
 * The computation models of docs/method.md, computation models: how much sorting a request asks
 * for.
 *
 * <p>Every sort is Java's standard stable sort ({@link List#sort}), ascending; strings compare by
 * UTF-16 code units, numbers numerically, {@code false} before {@code true}. CM1 sorts once on the
 * kind's first key (Book {@code author}, Video {@code title}); CM2 sorts once on each key of {@link
 * ObjectKind#sortSequence()} in order; CM3, CM4 and CM5 repeat the CM2 sequence 10, 100 and 1000
 * times.
 */
public enum ComputationModel {
    CM0(0, "none"),
    CM1(1, "1 sort"),
    CM2(1, "1 sort per property"),
    CM3(10, "CM2 × 10"),
    CM4(100, "CM2 × 100"),
    CM5(1000, "CM2 × 1000");

    private final int repetitions;
    private final String label;

    ComputationModel(int repetitions, String label) {
        this.repetitions = repetitions;
        this.label = label;
    }

    /** How often the model runs its sequence: CM1 its first sort once, CM2–CM5 all of it. */
    public int repetitions() {
        return repetitions;
    }

    /** What the model does, in words. */
    public String label() {
        return label;
    }

    /** The model of level 0–5. */
    public static ComputationModel of(int level) {
        return values()[level];
    }

    public int level() {
        return ordinal();
    }

    /** The sorts this model runs on {@code kind}, in order. */
    public <T> List<SortKey<T>> steps(ObjectKind<T> kind) {
        if (this == CM0) {
            return List.of();
        }
        if (this == CM1) {
            return List.of(kind.sortSequence().get(0));
        }
        List<SortKey<T>> steps = new ArrayList<>(repetitions * kind.sortSequence().size());
        for (int i = 0; i < repetitions; i++) {
            steps.addAll(kind.sortSequence());
        }
        return steps;
    }

    /** How many sorts this model runs on {@code kind}. */
    public int sorts(ObjectKind<?> kind) {
        return switch (this) {
            case CM0 -> 0;
            case CM1 -> 1;
            default -> repetitions * kind.sortSequence().size();
        };
    }

    /**
     * Estimated cost of this model on {@code count} objects: sorts × N·log2(N). Computed in {@code
     * double} throughout: finite, non-negative and non-decreasing in {@code count} for every int
     * count (an int product overflowed here once and let CM5 on a million objects in).
     */
    public double estimatedWork(ObjectKind<?> kind, int count) {
        return count < 2 ? 0 : (double) sorts(kind) * count * (Math.log(count) / Math.log(2));
    }

    /**
     * Runs this model on a copy of {@code objects} and returns the copy; the input is not changed.
     * CM0 returns the input itself.
     */
    public <T> List<T> apply(ObjectKind<T> kind, List<T> objects) {
        try {
            return apply(kind, objects, new Cancellation());
        } catch (CancelledException e) {
            throw new IllegalStateException("a cancellation nobody holds was cancelled", e);
        }
    }

    /**
     * As {@link #apply(ObjectKind, List)}, stopping when {@code cancellation} says so: before each
     * sort and, for lists of at least {@link #CHECK_WITHIN_SORT_COUNT} objects (whose single sort
     * can take a second), also during a sort.
     *
     * @throws CancelledException when the work was cancelled before it finished
     */
    public <T> List<T> apply(ObjectKind<T> kind, List<T> objects, Cancellation cancellation)
            throws CancelledException {
        if (this == CM0) {
            return objects;
        }
        List<T> sorted = new ArrayList<>(objects);
        boolean checkWithin = objects.size() >= CHECK_WITHIN_SORT_COUNT;
        for (SortKey<T> step : steps(kind)) {
            cancellation.throwIfCancelled();
            if (!checkWithin) {
                sorted.sort(step.comparator());
                continue;
            }
            Comparator<T> comparator = step.comparator();
            try {
                sorted.sort(
                        (a, b) -> {
                            if (cancellation.isCancelled()) {
                                throw new StopSorting();
                            }
                            return comparator.compare(a, b);
                        });
            } catch (StopSorting stopped) {
                cancellation.throwIfCancelled();
            }
        }
        cancellation.throwIfCancelled();
        return sorted;
    }

    /**
     * Lists at least this long are also checked for cancellation during each sort (one sort of a
     * million Books takes about a second). Below it, where every study cell with computation lies,
     * the sort runs with the key's own comparator, unwrapped.
     */
    public static final int CHECK_WITHIN_SORT_COUNT = 65_536;

    /** Unwinds a sort whose work was cancelled. */
    private static final class StopSorting extends RuntimeException {
        StopSorting() {
            super(null, null, false, false);
        }
    }
}
