package lab.responsetime.resources;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.LinkedHashMap;
import java.util.Map;
import lab.responsetime.core.ingest.BodyNotReceivedException;
import lab.responsetime.core.ingest.BodyRefusedException;
import lab.responsetime.core.ingest.BodyTooLargeException;
import lab.responsetime.core.ingest.InvalidBodyException;

/**
 * A refused POST body: 400 for a malformed or invalid one, with the first problem's object (its
 * index in the list, from 0) and field beside the message; 413 for one past a limit; 400 for one
 * that ended early (408 when the client stopped sending). The connection closes after the answer
 * unless the body was read to its end ({@link UnreadBodyFilter}).
 */
@Provider
public final class IngestRefusedMapper implements ExceptionMapper<BodyRefusedException> {
    /** 408: the client sent nothing for longer than the idle timeout. */
    private static final int REQUEST_TIMEOUT = 408;

    @Override
    public Response toResponse(BodyRefusedException refused) {
        Map<String, Object> details = new LinkedHashMap<>();
        int status;
        if (refused instanceof InvalidBodyException invalid) {
            status = Response.Status.BAD_REQUEST.getStatusCode();
            invalid.object().ifPresent(object -> details.put("object", object));
            invalid.field().ifPresent(field -> details.put("field", field));
        } else if (refused instanceof BodyTooLargeException) {
            status = Response.Status.REQUEST_ENTITY_TOO_LARGE.getStatusCode();
        } else if (refused instanceof BodyNotReceivedException notReceived
                && notReceived.timedOut()) {
            status = REQUEST_TIMEOUT;
        } else {
            status = Response.Status.BAD_REQUEST.getStatusCode();
        }
        return ApiErrors.response(status, refused.getMessage(), details);
    }
}
