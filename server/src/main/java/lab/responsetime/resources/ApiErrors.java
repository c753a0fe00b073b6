package lab.responsetime.resources;

import io.dropwizard.jersey.errors.ErrorMessage;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The API's error answers: {@code {"code": …, "message": "…"}} as JSON, never a stack trace. */
final class ApiErrors {
    private ApiErrors() {
    }

    /** 422: the request is well formed but asks for more work than the server accepts. */
    static final int UNPROCESSABLE_CONTENT = 422;

    static Response of(int status, String message) {
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .entity(new ErrorMessage(status, message))
                .build();
    }

    static Response unavailable(String message, long retryAfterSeconds) {
        return Response.fromResponse(of(Response.Status.SERVICE_UNAVAILABLE.getStatusCode(), message))
                .header(HttpHeaders.RETRY_AFTER, retryAfterSeconds)
                .build();
    }
}
