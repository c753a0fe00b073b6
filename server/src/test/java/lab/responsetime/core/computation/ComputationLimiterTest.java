package lab.responsetime.core.computation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ComputationLimiterTest {
    @Test
    void runsUpToTheLimitQueuesTheNextAndRefusesBeyond() throws Exception {
        ComputationLimiter limiter = new ComputationLimiter(1, 1, Duration.ofSeconds(30));
        ComputationLimiter.Slot first = limiter.acquire(1e9);
        assertThat(limiter.running()).isEqualTo(1);

        CompletableFuture<ComputationLimiter.Slot> queued =
                inLine(limiter, 1e6, new Cancellation(), 2);
        assertThat(queued).isNotDone();

        assertThatThrownBy(() -> limiter.acquire(1e6))
                .isInstanceOf(ComputationLimiter.OverCapacityException.class)
                .hasMessageContaining("1 computation slots and 1 places in the queue are taken")
                .satisfies(
                        e ->
                                assertThat(
                                                ((ComputationLimiter.OverCapacityException) e)
                                                        .retryAfterSeconds())
                                        .as("1.001e9 of pending work at the initial 2.5e7/s")
                                        .isEqualTo(41));

        first.close();
        ComputationLimiter.Slot second = queued.get(5, TimeUnit.SECONDS);
        assertThat(limiter.running()).isEqualTo(1);
        second.close();
        second.close();
        assertThat(limiter.running()).isZero();
        assertThat(limiter.admitted()).isZero();
    }

    @Test
    void aWaitThatRunsOutIsRefused() throws Exception {
        ComputationLimiter limiter = new ComputationLimiter(1, 5, Duration.ofMillis(20));
        try (ComputationLimiter.Slot busy = limiter.acquire(1)) {
            assertThatThrownBy(() -> limiter.acquire(1))
                    .isInstanceOf(ComputationLimiter.OverCapacityException.class)
                    .hasMessageContaining("within");
            assertThat(limiter.admitted()).isEqualTo(1);
        }
        assertThat(limiter.admitted()).isZero();
    }

    @Test
    void measuresThroughputFromFinishedWork() throws Exception {
        AtomicLong now = new AtomicLong();
        ComputationLimiter limiter = new ComputationLimiter(2, 0, Duration.ofSeconds(1), now::get);
        try (ComputationLimiter.Slot slot = limiter.acquire(4e8)) {
            now.addAndGet(2_000_000_000L);
        }
        double measured = 0.7 * ComputationLimiter.INITIAL_WORK_PER_SECOND + 0.3 * 2e8;
        assertThat(limiter.workPerSecond()).isEqualTo(measured);
        try (ComputationLimiter.Slot tiny = limiter.acquire(10)) {
            now.addAndGet(1_000_000_000L);
        }
        assertThat(limiter.workPerSecond()).as("too small to measure").isEqualTo(measured);
    }

    @Test
    void aSlotHeldAfterItsSortingMeasuresOnlyTheSorting() throws Exception {
        AtomicLong now = new AtomicLong();
        ComputationLimiter limiter = new ComputationLimiter(1, 0, Duration.ofSeconds(1), now::get);
        try (ComputationLimiter.Slot slot = limiter.acquire(4e8)) {
            now.addAndGet(2_000_000_000L);
            slot.sortingDone();
            now.addAndGet(30_000_000_000L); // a heavy compression of the answer
        }
        assertThat(limiter.workPerSecond())
                .isEqualTo(0.7 * ComputationLimiter.INITIAL_WORK_PER_SECOND + 0.3 * 2e8);
    }

    @Test
    void aWaiterWhoseClientLeftGivesUpItsPlaceAtOnce() throws Exception {
        ComputationLimiter limiter = new ComputationLimiter(1, 1, Duration.ofSeconds(30));
        try (ComputationLimiter.Slot busy = limiter.acquire(1e6)) {
            Cancellation leaves = new Cancellation();
            CompletableFuture<ComputationLimiter.Slot> waiter = inLine(limiter, 1e6, leaves, 2);
            leaves.cancel("the client closed the connection");
            assertThat(failure(waiter))
                    .isInstanceOf(CancelledException.class)
                    .hasMessage("the client closed the connection");
            assertThat(limiter.admitted()).as("its place is free again").isEqualTo(1);
            CompletableFuture<ComputationLimiter.Slot> next =
                    inLine(limiter, 1, new Cancellation(), 2);
            busy.close();
            next.get(5, TimeUnit.SECONDS).close();
        }
        assertThat(limiter.running()).isZero();
        assertThat(limiter.admitted()).isZero();
    }

    @Test
    void anAlreadyCancelledComputationIsNotAdmitted() {
        ComputationLimiter limiter = new ComputationLimiter(1, 1, Duration.ofSeconds(30));
        Cancellation gone = new Cancellation();
        gone.cancel("gone");
        assertThatThrownBy(() -> limiter.acquire(1, gone)).isInstanceOf(CancelledException.class);
        assertThat(limiter.admitted()).isZero();
    }

    @Test
    void shutDownCancelsRunningAndWaitingWorkAndRefusesNewWork() throws Exception {
        ComputationLimiter limiter = new ComputationLimiter(1, 1, Duration.ofSeconds(30));
        Cancellation running = new Cancellation();
        ComputationLimiter.Slot slot = limiter.acquire(1e6, running);
        CompletableFuture<ComputationLimiter.Slot> waiter =
                inLine(limiter, 1e6, new Cancellation(), 2);
        limiter.shutDown("stopping");
        assertThat(running.isCancelled()).as("the running computation is told to stop").isTrue();
        assertThat(failure(waiter)).isInstanceOf(CancelledException.class).hasMessage("stopping");
        slot.close();
        assertThat(limiter.admitted()).isZero();
        assertThatThrownBy(() -> limiter.acquire(1))
                .isInstanceOf(CancelledException.class)
                .hasMessage("stopping");
    }

    @Test
    void cancelledWorkDoesNotCountAsMeasuredThroughput() throws Exception {
        AtomicLong now = new AtomicLong();
        ComputationLimiter limiter = new ComputationLimiter(1, 0, Duration.ofSeconds(1), now::get);
        Cancellation cancellation = new Cancellation();
        try (ComputationLimiter.Slot slot = limiter.acquire(4e8, cancellation)) {
            now.addAndGet(1_000_000L);
            cancellation.cancel("gone");
        }
        assertThat(limiter.workPerSecond()).isEqualTo(ComputationLimiter.INITIAL_WORK_PER_SECOND);
    }

    /** Asks for a slot on another thread; returns once `admitted` says it is running or in line. */
    private static CompletableFuture<ComputationLimiter.Slot> inLine(
            ComputationLimiter limiter, double work, Cancellation cancellation, int admitted) {
        CompletableFuture<ComputationLimiter.Slot> slot =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return limiter.acquire(work, cancellation);
                            } catch (Exception e) {
                                throw new CompletionException(e);
                            }
                        });
        while (limiter.admitted() < admitted) {
            Thread.onSpinWait();
        }
        return slot;
    }

    /**
     * What an acquire on another thread failed with (within a second), or null when it got a slot.
     */
    private static Throwable failure(CompletableFuture<ComputationLimiter.Slot> slot)
            throws Exception {
        return slot.handle(
                        (taken, failed) -> {
                            if (taken != null) {
                                taken.close();
                            }
                            return failed == null ? null : failed.getCause();
                        })
                .get(1, TimeUnit.SECONDS);
    }
}
