package lab.responsetime.core.computation;

import java.util.ArrayList;
import java.util.List;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.dataset.ObjectKind.SortKey;

/**
 * The computation models of SPEC §4: how much sorting a request asks for.
 *
 * <p>Every sort is Java's standard stable sort ({@link List#sort}), ascending; strings
 * compare by UTF-16 code units, numbers numerically, {@code false} before {@code true}.
 * CM1 sorts once on the kind's first key (Book {@code author}, Video {@code title}); CM2 sorts
 * once on each key of {@link ObjectKind#sortSequence()} in order; CM3, CM4 and CM5 repeat the
 * CM2 sequence 10, 100 and 1000 times.
 */
public enum ComputationModel {
    CM0(0),
    CM1(1),
    CM2(1),
    CM3(10),
    CM4(100),
    CM5(1000);

    private final int repetitions;

    ComputationModel(int repetitions) {
        this.repetitions = repetitions;
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

    /** Estimated cost of this model on {@code count} objects: sorts × N·log2(N). */
    public double estimatedWork(ObjectKind<?> kind, int count) {
        return count < 2 ? 0 : sorts(kind) * count * (Math.log(count) / Math.log(2));
    }

    /** The largest count whose {@link #estimatedWork} stays within {@code budget}. */
    public int maxCountWithin(ObjectKind<?> kind, double budget, int upperBound) {
        int low = 1;
        int high = upperBound;
        while (low < high) {
            int middle = (int) ((low + (long) high + 1) / 2);
            if (estimatedWork(kind, middle) <= budget) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        return low;
    }

    /**
     * Runs this model on a copy of {@code objects} and returns the copy; the input is not
     * changed. CM0 returns the input itself.
     */
    public <T> List<T> apply(ObjectKind<T> kind, List<T> objects) {
        if (this == CM0) {
            return objects;
        }
        List<T> sorted = new ArrayList<>(objects);
        for (SortKey<T> step : steps(kind)) {
            sorted.sort(step.comparator());
        }
        return sorted;
    }
}
