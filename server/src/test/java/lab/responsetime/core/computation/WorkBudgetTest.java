package lab.responsetime.core.computation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.TreeSet;
import lab.responsetime.LabConfiguration;
import lab.responsetime.core.dataset.ObjectKind;
import org.junit.jupiter.api.Test;

/**
 * The budget decides every (kind, cm, count) the server can be asked for: the estimate is finite,
 * non-negative and non-decreasing in count, and a request is refused exactly when its estimate is
 * above the budget — walked over every kind and cm, at the counts where int arithmetic would
 * overflow (2³¹ / sorts and its neighbours), the dataset's size, the largest count each budget
 * admits and its neighbours, and a sweep between.
 */
class WorkBudgetTest {
    private static final int DATASET_SIZE = LabConfiguration.DatasetSettings.DEFAULT_SIZE;
    private static final double DEFAULT_BUDGET =
            new LabConfiguration().getComputation().getMaxSortWork();

    @Test
    void everyKindCmAndCountIsDecidedByItsEstimate() throws Exception {
        for (double limit : new double[] {1, 1e6, DEFAULT_BUDGET, 1e12, Double.MAX_VALUE}) {
            WorkBudget budget = new WorkBudget(limit);
            for (ObjectKind<?> kind : ObjectKind.ALL) {
                for (ComputationModel cm : ComputationModel.values()) {
                    double previous = 0;
                    for (int count : counts(budget, kind, cm)) {
                        double work = cm.estimatedWork(kind, count);
                        String where =
                                kind + " cm=" + cm.level() + " count=" + count + " budget=" + limit;
                        assertThat(Double.isFinite(work)).as("finite: " + where).isTrue();
                        assertThat(work).as("non-negative: " + where).isGreaterThanOrEqualTo(0);
                        assertThat(work).as("monotone: " + where).isGreaterThanOrEqualTo(previous);
                        previous = work;
                        assertThat(budget.admits(kind, cm, count))
                                .as("decision: " + where)
                                .isEqualTo(work <= limit);
                        if (work <= limit) {
                            assertThat(budget.check(kind, cm, count, DATASET_SIZE)).isEqualTo(work);
                        } else {
                            assertThatThrownBy(() -> budget.check(kind, cm, count, DATASET_SIZE))
                                    .as("refused: " + where)
                                    .isInstanceOf(WorkTooLargeException.class)
                                    .hasMessageContaining(
                                            "cm=" + cm.level() + " on " + count + " " + kind)
                                    .hasMessageContaining(
                                            "count up to "
                                                    + budget.maxCount(kind, cm, DATASET_SIZE)
                                                    + ";");
                        }
                    }
                }
            }
        }
    }

    @Test
    void theLargestAdmittedCountIsAdmittedAndTheNextIsNot() {
        for (double limit : new double[] {1, 1e6, DEFAULT_BUDGET, 1e12}) {
            WorkBudget budget = new WorkBudget(limit);
            for (ObjectKind<?> kind : ObjectKind.ALL) {
                for (ComputationModel cm : ComputationModel.values()) {
                    int max = budget.maxCount(kind, cm, DATASET_SIZE);
                    assertThat(budget.admits(kind, cm, max)).isTrue();
                    if (max < DATASET_SIZE) {
                        assertThat(budget.admits(kind, cm, max + 1))
                                .as(kind + " " + cm + " " + limit)
                                .isFalse();
                    }
                }
            }
        }
    }

    @Test
    void theOverflowThatLetAMillionBooksInIsGone() {
        WorkBudget budget = new WorkBudget(DEFAULT_BUDGET);
        // 7000 × 1,000,000 overflowed int (negative), and CM5 on 306,784 Books was the first to
        // wrap.
        assertThat(budget.admits(ObjectKind.BOOKS, ComputationModel.CM5, 1_000_000)).isFalse();
        assertThat(budget.admits(ObjectKind.BOOKS, ComputationModel.CM5, 306_784)).isFalse();
        assertThat(budget.admits(ObjectKind.VIDEOS, ComputationModel.CM5, 268_436)).isFalse();
        assertThat(budget.admits(ObjectKind.BOOKS, ComputationModel.CM0, Integer.MAX_VALUE))
                .isTrue();
        assertThat(ComputationModel.CM5.estimatedWork(ObjectKind.VIDEOS, Integer.MAX_VALUE))
                .isPositive()
                .isFinite();
    }

    @Test
    void aBudgetMustBePositiveAndFinite() {
        for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> new WorkBudget(bad))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    /** The counts walked for one budget, kind and cm, ascending. */
    private static TreeSet<Integer> counts(
            WorkBudget budget, ObjectKind<?> kind, ComputationModel cm) {
        TreeSet<Integer> counts = new TreeSet<>();
        int sorts = Math.max(1, cm.sorts(kind));
        int max = budget.maxCount(kind, cm, DATASET_SIZE);
        long overflow = (1L << 31) / sorts;
        for (long around : new long[] {1, 2, overflow, max, DATASET_SIZE, Integer.MAX_VALUE}) {
            for (long delta = -2; delta <= 2; delta++) {
                long count = around + delta;
                if (count >= 1 && count <= Integer.MAX_VALUE) {
                    counts.add((int) count);
                }
            }
        }
        for (int count = 1; count <= DATASET_SIZE; count += 997) {
            counts.add(count);
        }
        return counts;
    }
}
