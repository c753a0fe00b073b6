package lab.responsetime.core.ingest;

import java.io.IOException;
import java.util.concurrent.TimeoutException;

/**
 * Reading the body from the connection failed: the client closed it before the body's end, or sent
 * nothing for longer than the server's idle timeout. Nobody may be there to read the answer.
 */
public final class BodyNotReceivedException extends BodyRefusedException {
    BodyNotReceivedException(IOException cause) {
        super(
                "the body could not be read to its end: "
                        + (cause.getMessage() == null
                                ? "the connection ended"
                                : cause.getMessage()),
                cause);
    }

    /** Whether the client sent nothing for too long (rather than ending the connection). */
    public boolean timedOut() {
        for (Throwable cause = getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof TimeoutException
                    || cause instanceof java.net.SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }
}
