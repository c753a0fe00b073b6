package lab.responsetime.core.computation;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.function.LongSupplier;

/**
 * Bounds how many computations run at once, so the server stays responsive while heavy
 * sorting runs: at most {@code maxConcurrent} run, at most {@code maxQueued} more wait (each
 * at most {@code maxWait}), and anything beyond is refused at once with an estimate of when
 * to retry. Requests without computation never pass through here.
 */
public final class ComputationLimiter {
    /**
     * Work per second assumed until a computation has been measured (sorts × N·log2 N / s);
     * about what one core of the 2-core study machine sorts Books at.
     */
    static final double INITIAL_WORK_PER_SECOND = 2.5e7;
    /** Computations smaller than this are too short to update the throughput estimate. */
    private static final double MIN_WORK_TO_MEASURE = 1.0e6;
    private static final long MAX_RETRY_AFTER_SECONDS = 3600;

    private final int maxConcurrent;
    private final int maxQueued;
    private final Duration maxWait;
    private final LongSupplier nanoClock;
    private final Semaphore slots;
    private final AtomicInteger admitted = new AtomicInteger();
    private final DoubleAdder pendingWork = new DoubleAdder();
    private volatile double workPerSecond = INITIAL_WORK_PER_SECOND;

    public ComputationLimiter(int maxConcurrent, int maxQueued, Duration maxWait) {
        this(maxConcurrent, maxQueued, maxWait, System::nanoTime);
    }

    ComputationLimiter(int maxConcurrent, int maxQueued, Duration maxWait, LongSupplier nanoClock) {
        this.maxConcurrent = maxConcurrent;
        this.maxQueued = maxQueued;
        this.maxWait = maxWait;
        this.nanoClock = nanoClock;
        this.slots = new Semaphore(maxConcurrent, true);
    }

    /**
     * Takes a slot for a computation of the given estimated work, waiting if allowed.
     *
     * @throws OverCapacityException when all slots and places in the queue are taken, or the
     *     wait ran out
     */
    public Slot acquire(double estimatedWork) throws OverCapacityException, InterruptedException {
        if (admitted.incrementAndGet() > maxConcurrent + maxQueued) {
            admitted.decrementAndGet();
            throw overCapacity("all " + maxConcurrent + " computation slots and " + maxQueued
                    + " places in the queue are taken");
        }
        pendingWork.add(estimatedWork);
        long waitStarted = nanoClock.getAsLong();
        boolean acquired = false;
        try {
            acquired = slots.tryAcquire(maxWait.toNanos(), TimeUnit.NANOSECONDS);
        } finally {
            if (!acquired) {
                pendingWork.add(-estimatedWork);
                admitted.decrementAndGet();
            }
        }
        if (!acquired) {
            throw overCapacity("no computation slot became free within " + maxWait.toSeconds() + " s");
        }
        return new Slot(estimatedWork, nanoClock.getAsLong() - waitStarted);
    }

    /** Computations running now. */
    public int running() {
        return maxConcurrent - slots.availablePermits();
    }

    /** Computations running or waiting now. */
    public int admitted() {
        return admitted.get();
    }

    /** The measured sorting throughput, in estimated work per second. */
    public double workPerSecond() {
        return workPerSecond;
    }

    private OverCapacityException overCapacity(String why) {
        double seconds = pendingWork.sum() / (workPerSecond * maxConcurrent);
        long retryAfter = Math.max(1, Math.min(MAX_RETRY_AFTER_SECONDS, (long) Math.ceil(seconds)));
        return new OverCapacityException("The server is busy: " + why + ". Retry after " + retryAfter
                + " s, or ask for less computation.", retryAfter);
    }

    /** A taken slot; closing it frees the slot and records how fast the work ran. */
    public final class Slot implements AutoCloseable {
        private final double work;
        private final long waitedNanos;
        private final long startedNanos = nanoClock.getAsLong();
        private boolean closed;

        private Slot(double work, long waitedNanos) {
            this.work = work;
            this.waitedNanos = waitedNanos;
        }

        /** How long the computation waited for this slot. */
        public long waitedNanos() {
            return waitedNanos;
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            long elapsedNanos = nanoClock.getAsLong() - startedNanos;
            if (work >= MIN_WORK_TO_MEASURE && elapsedNanos > 0) {
                double measured = work / (elapsedNanos / 1e9);
                workPerSecond = 0.7 * workPerSecond + 0.3 * measured;
            }
            pendingWork.add(-work);
            admitted.decrementAndGet();
            slots.release();
        }
    }

    /** The server cannot take this computation now; retry after {@link #retryAfterSeconds()}. */
    public static final class OverCapacityException extends Exception {
        private final long retryAfterSeconds;

        OverCapacityException(String message, long retryAfterSeconds) {
            super(message);
            this.retryAfterSeconds = retryAfterSeconds;
        }

        public long retryAfterSeconds() {
            return retryAfterSeconds;
        }
    }
}
