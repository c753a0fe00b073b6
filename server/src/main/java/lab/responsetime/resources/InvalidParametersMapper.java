package lab.responsetime.resources;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Bad query parameters: 400 with every problem and what is allowed. */
@Provider
public final class InvalidParametersMapper
        implements ExceptionMapper<RequestParameters.InvalidParametersException> {
    @Override
    public Response toResponse(RequestParameters.InvalidParametersException exception) {
        return ApiErrors.response(
                Response.Status.BAD_REQUEST.getStatusCode(), exception.getMessage());
    }
}
