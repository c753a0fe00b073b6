package lab.responsetime.resources;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import lab.responsetime.core.StudyRequest;
import lab.responsetime.core.StudyService;
import lab.responsetime.core.computation.ComputationLimiter.OverCapacityException;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Compression;

/**
 * {@code GET /api/books} and {@code GET /api/videos}: the first {@code count} objects, sorted
 * on the server by computation model {@code cm}, in {@code format}, compressed as
 * {@code compression} says (and only as it says).
 */
@Path("/")
public final class ObjectsResource {
    private final StudyService service;

    public ObjectsResource(StudyService service) {
        this.service = service;
    }

    @GET
    @Path("books")
    public Response books(@Context UriInfo uri) throws InterruptedException {
        return answer(ObjectKind.BOOKS, uri);
    }

    @GET
    @Path("videos")
    public Response videos(@Context UriInfo uri) throws InterruptedException {
        return answer(ObjectKind.VIDEOS, uri);
    }

    private <T> Response answer(ObjectKind<T> kind, UriInfo uri) throws InterruptedException {
        StudyRequest<T> request;
        StudyService.Prepared<T> prepared;
        try {
            request = RequestParameters.parse(kind, uri.getQueryParameters(), service.datasets().size());
            prepared = service.prepare(request);
        } catch (RequestParameters.InvalidParametersException e) {
            return ApiErrors.of(Response.Status.BAD_REQUEST.getStatusCode(), e.getMessage());
        } catch (StudyService.WorkTooLargeException e) {
            return ApiErrors.of(ApiErrors.UNPROCESSABLE_CONTENT, e.getMessage());
        } catch (StudyService.UnavailableException e) {
            return ApiErrors.unavailable(e.getMessage(), e.retryAfterSeconds());
        } catch (OverCapacityException e) {
            return ApiErrors.unavailable(e.getMessage(), e.retryAfterSeconds());
        }
        Response.ResponseBuilder answer = Response.ok(new Payload<>(kind, prepared.objects(), request.format(),
                        request.compression(), prepared.queueNanos(), prepared.sortNanos()))
                .type(request.format().mediaType())
                .header(HttpHeaders.CACHE_CONTROL, "no-store");
        if (request.compression() == Compression.GZIP) {
            answer.header(HttpHeaders.CONTENT_ENCODING, Compression.GZIP.parameter());
        }
        return answer.build();
    }
}
