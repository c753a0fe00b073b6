package lab.responsetime.core.computation;

/** The computation asked for is larger than the server accepts; the message says what it allows. */
public final class WorkTooLargeException extends Exception {
    WorkTooLargeException(String message) {
        super(message);
    }
}
