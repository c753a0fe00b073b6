package lab.responsetime.resources;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import lab.responsetime.core.RetryLaterException;

/**
 * A dataset still loading, or every computation slot and queue place taken: 503 with Retry-After.
 */
@Provider
public final class RetryLaterMapper implements ExceptionMapper<RetryLaterException> {
    @Override
    public Response toResponse(RetryLaterException exception) {
        return ApiErrors.unavailable(exception.getMessage(), exception.retryAfterSeconds());
    }
}
