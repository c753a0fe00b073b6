package lab.responsetime.resources;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import lab.responsetime.core.computation.CancelledException;

/**
 * Work stopped because nobody waits for it: 503 with the reason. After a client left, nobody reads
 * this answer; during a shutdown, the client learns why its request ended.
 */
@Provider
public final class CancelledMapper implements ExceptionMapper<CancelledException> {
    @Override
    public Response toResponse(CancelledException exception) {
        return response(exception.getMessage());
    }

    static Response response(String reason) {
        return ApiErrors.response(
                Response.Status.SERVICE_UNAVAILABLE.getStatusCode(),
                "The computation was stopped: " + reason + ".");
    }

    /**
     * The same for a body stopped before its first byte left (after it, the connection just ends).
     */
    @Provider
    public static final class WhileWriting implements ExceptionMapper<BodyCancelledException> {
        @Override
        public Response toResponse(BodyCancelledException exception) {
            return response(exception.getMessage());
        }
    }
}
