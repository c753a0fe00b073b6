package lab.responsetime.resources;

import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** An unknown API path answers 404 with the paths that exist. */
@Provider
public final class NotFoundMapper implements ExceptionMapper<NotFoundException> {
    @Context private UriInfo uriInfo;

    @Override
    public Response toResponse(NotFoundException exception) {
        return ApiErrors.response(
                Response.Status.NOT_FOUND.getStatusCode(),
                "No such path: /api/"
                        + uriInfo.getPath()
                        + ". The API has GET /api/books and GET /api/videos with the parameters "
                        + String.join(", ", RequestParameters.NAMES)
                        + ", POST /api/books and POST /api/videos (a list of"
                        + " objects in any format), the same for each brought dataset at"
                        + " /api/{name} (GET /api/datasets lists them), and GET /api/info.");
    }
}
