package lab.responsetime.core.computation;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Says that work done for one request is no longer wanted: its client went away, or the server is
 * shutting down. Work checks {@link #isCancelled()} at its steps; whoever waits for something on
 * the work's behalf registers {@link #onCancel} to be woken.
 */
public class Cancellation {
    private volatile String reason;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    /** Whether the work should stop; what long work asks at its steps. */
    public boolean isCancelled() {
        return reason != null;
    }

    /** Why the work was cancelled, or {@code null} while it is not. */
    public String reason() {
        return reason;
    }

    /** Cancels the work (the first reason given is kept) and runs the listeners once. */
    public void cancel(String why) {
        synchronized (this) {
            if (reason != null) {
                return;
            }
            reason = why;
        }
        for (Runnable listener : listeners) {
            listener.run();
        }
    }

    public void throwIfCancelled() throws CancelledException {
        if (isCancelled()) {
            throw new CancelledException(reason == null ? "cancelled" : reason);
        }
    }

    /**
     * Runs {@code listener} on cancellation (at once if already cancelled) until the registration
     * is closed.
     */
    public Registration onCancel(Runnable listener) {
        listeners.add(listener);
        if (isCancelled()) {
            listener.run();
        }
        return () -> listeners.remove(listener);
    }

    /** Stops a listener from being run. */
    @FunctionalInterface
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }
}
