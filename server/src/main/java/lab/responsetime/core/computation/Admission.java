package lab.responsetime.core.computation;

import java.io.Closeable;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One request's admitted work: its slot in the {@link ComputationLimiter}, the watch on its client,
 * and the {@link Cancellation} that either fires (the client left, the server is stopping). Closing
 * it stops watching and frees the slot. A heavy compression holds it until the answer's body is
 * written.
 */
public final class Admission implements Closeable {
    private final ComputationLimiter.Slot slot;
    private final ClientPresence.Watch watch;
    private final Cancellation cancellation;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Admission(
            ComputationLimiter.Slot slot, ClientPresence.Watch watch, Cancellation cancellation) {
        this.slot = slot;
        this.watch = watch;
        this.cancellation = cancellation;
    }

    /** For work that takes no slot: nothing watches it and nothing cancels it. */
    public static Admission none() {
        return new Admission(null, () -> {}, new Cancellation());
    }

    /**
     * Watches {@code client} and takes a slot for work of the estimated size, waiting in line if
     * the limiter allows.
     *
     * @throws CancelledException when the client left or the server stopped before a slot was free
     */
    public static Admission take(
            ComputationLimiter limiter, double estimatedWork, ClientPresence client)
            throws ComputationLimiter.OverCapacityException,
                    CancelledException,
                    InterruptedException {
        Cancellation cancellation = new Cancellation();
        ClientPresence.Watch watch = client.watch(cancellation);
        try {
            return new Admission(limiter.acquire(estimatedWork, cancellation), watch, cancellation);
        } catch (Throwable notAdmitted) {
            watch.close();
            throw notAdmitted;
        }
    }

    /** Fires when nobody waits for the work any more; work checks it at its steps. */
    public Cancellation cancellation() {
        return cancellation;
    }

    /** How long the work waited for its slot. */
    public long waitedNanos() {
        return slot == null ? 0 : slot.waitedNanos();
    }

    /** See {@link ComputationLimiter.Slot#sortingDone()}. */
    public void sortingDone() {
        if (slot != null) {
            slot.sortingDone();
        }
    }

    /** Stops watching the client and frees the slot; later calls do nothing. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            watch.close();
            if (slot != null) {
                slot.close();
            }
        }
    }
}
