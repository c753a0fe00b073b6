package lab.responsetime.resources;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Closes the connection after every answer given while the request's body is still unread — a
 * refusal before the body is looked at (a dataset nobody brought, a bad query, a declared length
 * over the limit), or one partway through it — and says so with {@code Connection: close}. Jetty
 * drops such a connection once the answer is out; a keep-alive client not told would send its next
 * request into it and fail. An answer after the body was read to its end (also a refusal of a body
 * the server drained) leaves the connection open.
 *
 * <p>What was read is counted on the request's entity stream, never by touching the stream here: a
 * client that asked to continue ({@code Expect: 100-continue}) gets no 100 for a refusal.
 */
@Provider
public final class UnreadBodyFilter implements ContainerRequestFilter, ContainerResponseFilter {
    private static final String READ = UnreadBodyFilter.class.getName() + ".read";

    @Override
    public void filter(ContainerRequestContext request) {
        if (declaredLength(request) <= 0 && !chunked(request)) {
            return; // no body (every GET): nothing to count
        }
        ReadCount read = new ReadCount(request.getEntityStream());
        request.setEntityStream(read);
        request.setProperty(READ, read);
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        long length = declaredLength(request);
        boolean chunked = chunked(request);
        if (length <= 0 && !chunked) {
            return;
        }
        ReadCount read = (ReadCount) request.getProperty(READ);
        boolean readToEnd = read != null && (read.ended || (!chunked && read.bytes >= length));
        if (!readToEnd) {
            response.getHeaders().putSingle("Connection", "close");
        }
    }

    /** The entity stream, counting the bytes read and whether its end was reached. */
    private static final class ReadCount extends FilterInputStream {
        private long bytes;
        private boolean ended;

        ReadCount(InputStream body) {
            super(body);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            count(b < 0 ? -1 : 1);
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            count(n);
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(n);
            bytes += skipped;
            return skipped;
        }

        private void count(int n) {
            if (n < 0) {
                ended = true;
            } else {
                bytes += n;
            }
        }
    }

    /** Content-Length, or -1 (not getLength(), which fails on a length past an int's). */
    private static long declaredLength(ContainerRequestContext request) {
        String declared = request.getHeaderString("Content-Length");
        return declared != null && declared.matches("[0-9]{1,18}") ? Long.parseLong(declared) : -1;
    }

    private static boolean chunked(ContainerRequestContext request) {
        return request.getHeaderString("Transfer-Encoding") != null;
    }
}
