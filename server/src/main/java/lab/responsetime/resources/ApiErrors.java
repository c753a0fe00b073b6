package lab.responsetime.resources;

import com.fasterxml.jackson.core.JsonProcessingException;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import lab.responsetime.core.formats.JacksonMappers;

/**
 * The one writer of the API's error bodies: {@code {"code": status, "message": "…"}} as JSON (a
 * refused POST body adds where its problem is: {@code "object"} and {@code "field"}), never a stack
 * trace — for the exception mappers, the servlet filter and Jetty's own errors.
 */
public final class ApiErrors {
    /** 422: the request is well formed but asks for more work than the server accepts. */
    static final int UNPROCESSABLE_CONTENT = 422;

    private ApiErrors() {}

    /** The error body, UTF-8. */
    public static byte[] body(int status, String message) {
        return body(status, message, Map.of());
    }

    /**
     * The error body with more about where the problem is (say {@code "object": 3, "field":
     * "price"}).
     */
    static byte[] body(int status, String message, Map<String, ?> details) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", status);
        body.put("message", message);
        body.putAll(details);
        try {
            return JacksonMappers.JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of a number and a string always serializes", e);
        }
    }

    /** An error answer for a JAX-RS resource or exception mapper. */
    static Response response(int status, String message) {
        return response(status, message, Map.of());
    }

    /**
     * An error answer with more about where the problem is, after the message. It states its length
     * (the application's answers otherwise stream, chunked), so that a client reads it whole also
     * when the connection closes after it with the client still sending a refused body.
     */
    static Response response(int status, String message, Map<String, ?> details) {
        byte[] body = body(status, message, details);
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .header(HttpHeaders.CONTENT_LENGTH, body.length)
                .entity(body)
                .build();
    }

    /** 503 with the number of seconds after which to retry. */
    static Response unavailable(String message, long retryAfterSeconds) {
        return Response.fromResponse(
                        response(Response.Status.SERVICE_UNAVAILABLE.getStatusCode(), message))
                .header(HttpHeaders.RETRY_AFTER, retryAfterSeconds)
                .build();
    }

    /** Writes an error answer from a servlet filter. */
    static void send(HttpServletResponse response, int status, String message) throws IOException {
        byte[] body = body(status, message);
        response.setStatus(status);
        response.setContentType(MediaType.APPLICATION_JSON);
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
