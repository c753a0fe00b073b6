package lab.responsetime.resources;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import lab.responsetime.core.computation.WorkTooLargeException;

/**
 * A computation above the budget: 422, refused before any work, naming the largest count allowed.
 */
@Provider
public final class WorkTooLargeMapper implements ExceptionMapper<WorkTooLargeException> {
    @Override
    public Response toResponse(WorkTooLargeException exception) {
        return ApiErrors.response(ApiErrors.UNPROCESSABLE_CONTENT, exception.getMessage());
    }
}
