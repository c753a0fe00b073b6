package lab.responsetime.core.computation;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import lab.responsetime.core.RetryLaterException;

/**
 * Bounds how many computations run at once, so the server stays responsive while heavy sorting or
 * heavy compression runs: at most {@code maxConcurrent} run, at most {@code maxQueued} more wait in
 * arrival order (each at most {@code maxWait}), and anything beyond is refused at once with an
 * estimate of when to retry. Requests without computation and without a heavy compression level
 * never pass through here. A heavy compression adds nothing to a request's estimated work (which is
 * sorting work): it is not part of the sorting throughput, and lengthens no Retry-After.
 *
 * <p>Every admitted computation holds a {@link Cancellation}. A waiting computation whose
 * cancellation fires (its client left) gives up its place at once; {@link #shutDown} cancels every
 * waiting and running computation and refuses new ones.
 */
public final class ComputationLimiter {
    /**
     * Work per second assumed until a computation has been measured (sorts × N·log2 N / s); about
     * what one core of the 2-core study machine sorts Books at.
     */
    static final double INITIAL_WORK_PER_SECOND = 2.5e7;

    /** Computations smaller than this are too short to update the throughput estimate. */
    private static final double MIN_WORK_TO_MEASURE = 1.0e6;

    private static final long MAX_RETRY_AFTER_SECONDS = 3600;

    private final int maxConcurrent;
    private final int maxQueued;
    private final Duration maxWait;
    private final LongSupplier nanoClock;

    private final ReentrantLock lock = new ReentrantLock();

    /** Signalled whenever a slot frees, a waiter leaves or a cancellation fires. */
    private final Condition changed = lock.newCondition();

    private final ArrayDeque<Slot> waiting = new ArrayDeque<>();
    private final Set<Slot> runningSlots = new HashSet<>();
    private double pendingWork;
    private String shutDownReason;
    private volatile double workPerSecond = INITIAL_WORK_PER_SECOND;

    public ComputationLimiter(int maxConcurrent, int maxQueued, Duration maxWait) {
        this(maxConcurrent, maxQueued, maxWait, System::nanoTime);
    }

    ComputationLimiter(int maxConcurrent, int maxQueued, Duration maxWait, LongSupplier nanoClock) {
        this.maxConcurrent = maxConcurrent;
        this.maxQueued = maxQueued;
        this.maxWait = maxWait;
        this.nanoClock = nanoClock;
    }

    /** As {@link #acquire(double, Cancellation)} for work nobody can cancel but a shutdown. */
    public Slot acquire(double estimatedWork)
            throws OverCapacityException, CancelledException, InterruptedException {
        return acquire(estimatedWork, new Cancellation());
    }

    /**
     * Takes a slot for a computation of the given estimated work, waiting in line if allowed.
     *
     * @throws OverCapacityException when all slots and places in the queue are taken, or the wait
     *     ran out
     * @throws CancelledException when {@code cancellation} fired before a slot was free, or the
     *     server is shutting down
     */
    public Slot acquire(double estimatedWork, Cancellation cancellation)
            throws OverCapacityException, CancelledException, InterruptedException {
        long waitStarted = nanoClock.getAsLong();
        Slot slot = new Slot(estimatedWork, cancellation);
        lock.lock();
        try {
            if (shutDownReason != null) {
                throw new CancelledException(shutDownReason);
            }
            cancellation.throwIfCancelled();
            if (runningSlots.size() + waiting.size() >= maxConcurrent + maxQueued) {
                throw overCapacity(
                        "all "
                                + maxConcurrent
                                + " computation slots and "
                                + maxQueued
                                + " places in the queue are taken");
            }
            pendingWork += estimatedWork;
            waiting.addLast(slot);
            boolean started = false;
            try (Cancellation.Registration wake = cancellation.onCancel(this::signalChange)) {
                long remainingNanos = maxWait.toNanos();
                while (!(waiting.peekFirst() == slot && runningSlots.size() < maxConcurrent)) {
                    cancellation.throwIfCancelled();
                    if (remainingNanos <= 0) {
                        throw overCapacity(
                                "no computation slot became free within "
                                        + maxWait.toSeconds()
                                        + " s");
                    }
                    remainingNanos = changed.awaitNanos(remainingNanos);
                }
                cancellation.throwIfCancelled();
                waiting.removeFirst();
                runningSlots.add(slot);
                started = true;
            } finally {
                if (!started) {
                    waiting.remove(slot);
                    pendingWork -= estimatedWork;
                }
                // The next in line may be able to start now, or must see that the line moved.
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
        slot.started(nanoClock.getAsLong() - waitStarted);
        return slot;
    }

    /** Computations running now. */
    public int running() {
        lock.lock();
        try {
            return runningSlots.size();
        } finally {
            lock.unlock();
        }
    }

    /** Computations running or waiting now. */
    public int admitted() {
        lock.lock();
        try {
            return runningSlots.size() + waiting.size();
        } finally {
            lock.unlock();
        }
    }

    /** The measured sorting throughput, in estimated work per second. */
    public double workPerSecond() {
        return workPerSecond;
    }

    /**
     * Cancels every running and waiting computation with {@code reason} and refuses every later
     * one: for a server that is stopping, whose clients should not wait for work it will not
     * finish.
     */
    public void shutDown(String reason) {
        List<Slot> all;
        lock.lock();
        try {
            if (shutDownReason == null) {
                shutDownReason = reason;
            }
            all = new ArrayList<>(runningSlots);
            all.addAll(waiting);
        } finally {
            lock.unlock();
        }
        for (Slot slot : all) {
            slot.cancellation.cancel(reason);
        }
    }

    private void signalChange() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private OverCapacityException overCapacity(String why) {
        double seconds = pendingWork / (workPerSecond * maxConcurrent);
        long retryAfter = Math.max(1, Math.min(MAX_RETRY_AFTER_SECONDS, (long) Math.ceil(seconds)));
        return new OverCapacityException(
                "The server is busy: "
                        + why
                        + ". Retry after "
                        + retryAfter
                        + " s, or ask for less computation.",
                retryAfter);
    }

    /** A taken slot; closing it frees the slot and records how fast the work ran. */
    public final class Slot implements AutoCloseable {
        private final double work;
        private final Cancellation cancellation;
        private long waitedNanos;
        private long startedNanos;
        private long measuredNanos = -1;
        private boolean closed;

        private Slot(double work, Cancellation cancellation) {
            this.work = work;
            this.cancellation = cancellation;
        }

        private void started(long waited) {
            waitedNanos = waited;
            startedNanos = nanoClock.getAsLong();
        }

        /** How long the computation waited for this slot. */
        public long waitedNanos() {
            return waitedNanos;
        }

        /**
         * Ends the sorting while the slot stays taken (for the heavy compression of the answer):
         * the throughput estimate counts the time until now, not until the slot is freed.
         */
        public void sortingDone() {
            measuredNanos = nanoClock.getAsLong() - startedNanos;
        }

        @Override
        public void close() {
            long elapsedNanos =
                    measuredNanos >= 0 ? measuredNanos : nanoClock.getAsLong() - startedNanos;
            lock.lock();
            try {
                if (closed) {
                    return;
                }
                closed = true;
                // A cancelled computation stopped early: its time says nothing of the throughput.
                if (work >= MIN_WORK_TO_MEASURE
                        && elapsedNanos > 0
                        && !cancellation.isCancelled()) {
                    double measured = work / (elapsedNanos / 1e9);
                    workPerSecond = 0.7 * workPerSecond + 0.3 * measured;
                }
                pendingWork -= work;
                runningSlots.remove(this);
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** The server cannot take this computation now; retry after {@link #retryAfterSeconds()}. */
    public static final class OverCapacityException extends RetryLaterException {
        OverCapacityException(String message, long retryAfterSeconds) {
            super(message, retryAfterSeconds);
        }
    }
}
