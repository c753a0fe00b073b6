package lab.responsetime.core;

/** The server cannot do this now, but may shortly: retry after {@link #retryAfterSeconds()}. */
public class RetryLaterException extends Exception {
    private final long retryAfterSeconds;

    public RetryLaterException(String message, long retryAfterSeconds) {
        super(message);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
