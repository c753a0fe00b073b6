package lab.responsetime.core.computation;

/**
 * Watches whether the client that asked for some work is still there. While a watch is open, the
 * cancellation it was given is cancelled as soon as the client is known to be gone (its connection
 * closed or reset).
 */
@FunctionalInterface
public interface ClientPresence {
    /** For requests whose connection cannot be watched (e.g. an in-memory test container). */
    ClientPresence UNKNOWN = cancellation -> () -> {};

    /** Starts watching; close the result when the work is over. */
    Watch watch(Cancellation cancellation);

    /** An open watch. */
    @FunctionalInterface
    interface Watch extends AutoCloseable {
        @Override
        void close();
    }
}
