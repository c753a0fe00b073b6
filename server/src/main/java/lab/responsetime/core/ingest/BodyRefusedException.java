package lab.responsetime.core.ingest;

import java.io.IOException;

/**
 * Why a posted body was refused. An {@link IOException}, so that it passes unchanged through the
 * decompressors and parsers that read the body: each rethrows what its input stream throws.
 */
public abstract class BodyRefusedException extends IOException {
    private boolean bodyReadToEnd;

    BodyRefusedException(String message) {
        super(message);
    }

    BodyRefusedException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Whether the body was read to its end before the refusal was answered, so that the connection
     * can carry the client's next request; when not, the answer should close it.
     */
    public boolean bodyReadToEnd() {
        return bodyReadToEnd;
    }

    void bodyReadToEnd(boolean readToEnd) {
        this.bodyReadToEnd = readToEnd;
    }
}
