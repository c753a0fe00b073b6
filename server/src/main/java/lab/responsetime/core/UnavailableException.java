package lab.responsetime.core;

/** The data cannot be served yet (a dataset is still loading); retry later. */
public final class UnavailableException extends RetryLaterException {
    UnavailableException(String message, long retryAfterSeconds) {
        super(message, retryAfterSeconds);
    }
}
