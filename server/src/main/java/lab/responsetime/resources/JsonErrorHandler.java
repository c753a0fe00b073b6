package lab.responsetime.resources;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Errors that Jetty answers itself, before the application sees the request (a malformed URI or
 * header, say), get the API's JSON error body instead of an HTML page, and no stack trace.
 */
public final class JsonErrorHandler extends ErrorHandler {
    @Override
    protected void generateResponse(
            Request request,
            Response response,
            int code,
            String message,
            Throwable cause,
            Callback callback) {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.write(true, body(code, message), callback);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(new HttpField(HttpHeader.CONTENT_TYPE, "application/json"));
        return body(status, reason);
    }

    private static ByteBuffer body(int code, String message) {
        String text = message == null || message.isBlank() ? HttpStatus.getMessage(code) : message;
        return ByteBuffer.wrap(ApiErrors.body(code, text));
    }
}
