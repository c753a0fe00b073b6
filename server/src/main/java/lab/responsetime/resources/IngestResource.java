package lab.responsetime.resources;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.dataset.Datasets;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Format;
import lab.responsetime.core.ingest.BodyRefusedException;
import lab.responsetime.core.ingest.Ingestion;

/**
 * {@code POST /api/books}, {@code POST /api/videos} and {@code POST /api/{name}} of a brought
 * dataset: the collector of a load testbed. The body is a list of objects in any of the lab's
 * formats, exactly as {@code GET} answers it, named by {@code Content-Type} and optionally
 * compressed as {@code Content-Encoding} says; every object is decoded and checked, nothing is
 * kept, and the answer is a small JSON summary with a {@code Server-Timing} header ({@code
 * receive}, {@code inflate} when compressed, {@code decode}).
 *
 * <p>What the headers alone decide is answered before a byte of the body is read, closing the
 * connection after it: query parameters (400; the body says everything), an unknown Content-Type or
 * Content-Encoding (415, naming the accepted ones), a Content-Length above {@code
 * ingest.maxBodyBytes} (413). On the server, {@link HttpPolicyFilter} answers an unknown
 * Content-Type even before Jersey, which would answer one it cannot parse with a bare 400.
 *
 * <p>The body itself is refused by {@link Ingestion}'s exceptions, answered by {@link
 * IngestRefusedMapper}. It is read from the request's own stream, never through an entity
 * parameter, which Jersey would first probe for emptiness: a read that waits for the body (and
 * sends {@code 100 Continue}) before anything could be refused.
 */
@Path("/")
public final class IngestResource {
    /** The header of the answer's durations. */
    static final String SERVER_TIMING = "Server-Timing";

    /**
     * The media types a POST accepts, sent with a 415 (the Linked Data Platform's header for it).
     */
    static final String ACCEPT_POST = "Accept-Post";

    private final Ingestion ingestion;
    private final Datasets datasets;

    public IngestResource(Ingestion ingestion, Datasets datasets) {
        this.ingestion = ingestion;
        this.datasets = datasets;
    }

    @POST
    @Path(ObjectsResource.KINDS)
    public Response post(@PathParam("kind") String kind, @Context ContainerRequestContext request)
            throws BodyRefusedException {
        ObjectKind<?> objectKind = ObjectsResource.kindNamed(datasets, kind);
        String path = "POST /api/" + kind;
        if (!request.getUriInfo().getQueryParameters().isEmpty()) {
            return refuse(
                            Response.Status.BAD_REQUEST.getStatusCode(),
                            path
                                    + " takes no query parameters, got "
                                    + String.join(
                                            ", ",
                                            request.getUriInfo().getQueryParameters().keySet())
                                    + "; the body's Content-Type and Content-Encoding say how to"
                                    + " read it")
                    .build();
        }
        String contentType = request.getHeaderString(HttpHeaders.CONTENT_TYPE);
        Optional<Format> format = Format.forContentType(contentType);
        if (format.isEmpty()) {
            return unsupportedContentType(contentType);
        }
        String contentEncoding = request.getHeaderString(HttpHeaders.CONTENT_ENCODING);
        Optional<Compression> encoding = Compression.forContentEncoding(contentEncoding);
        if (encoding.isEmpty()) {
            return refuse(
                            Response.Status.UNSUPPORTED_MEDIA_TYPE.getStatusCode(),
                            "Content-Encoding must be one of "
                                    + Compression.contentCodings()
                                    + " (a single one), got "
                                    + quoted(contentEncoding))
                    .header(HttpHeaders.ACCEPT_ENCODING, Compression.contentCodings())
                    .build();
        }
        long declared = contentLength(request.getHeaderString(HttpHeaders.CONTENT_LENGTH));
        if (declared > ingestion.limits().maxBodyBytes()) {
            return refuse(
                            Response.Status.REQUEST_ENTITY_TOO_LARGE.getStatusCode(),
                            "the body is larger than the limit of "
                                    + ingestion.limits().maxBodyBytes()
                                    + " bytes (ingest.maxBodyBytes): Content-Length is "
                                    + declared)
                    .build();
        }
        Ingestion.Summary summary =
                ingestion.ingest(
                        objectKind, format.get(), encoding.get(), request.getEntityStream());
        return Response.ok(answer(summary), MediaType.APPLICATION_JSON_TYPE)
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .header(SERVER_TIMING, serverTiming(summary))
                .build();
    }

    /** 415 for a Content-Type that names no format, listing those that do. */
    static Response unsupportedContentType(String contentType) {
        return refuse(
                        Response.Status.UNSUPPORTED_MEDIA_TYPE.getStatusCode(),
                        unsupportedContentTypeMessage(contentType))
                .header(ACCEPT_POST, Format.postedMediaTypes())
                .build();
    }

    static String unsupportedContentTypeMessage(String contentType) {
        return "Content-Type must be one of "
                + Format.postedDescribed()
                + ", got "
                + quoted(contentType);
    }

    /**
     * An answer given without reading the body: the connection closes after it ({@link
     * UnreadBodyFilter}), since the body (if the client sends it at all) is left unread.
     */
    private static Response.ResponseBuilder refuse(int status, String message) {
        return Response.fromResponse(ApiErrors.response(status, message));
    }

    private static String quoted(String header) {
        return header == null ? "none" : "\"" + header + "\"";
    }

    /**
     * The declared length, or -1 when there is none (a chunked body): Jetty has refused a malformed
     * one.
     */
    private static long contentLength(String header) {
        try {
            return header == null ? -1 : Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The summary: {@code {"kind":"books","format":"json","encoding":"gzip","objects":10,…}}. */
    static Map<String, Object> answer(Ingestion.Summary summary) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("kind", summary.kind().plural());
        answer.put("format", summary.format().parameter());
        answer.put("encoding", summary.encoding().contentCoding());
        answer.put("objects", summary.objects());
        answer.put("bytes", summary.wireBytes());
        answer.put("decoded_bytes", summary.decodedBytes());
        answer.put("receive_ms", millis(summary.receiveNanos()));
        answer.put("inflate_ms", millis(summary.inflateNanos()));
        answer.put("decode_ms", millis(summary.decodeNanos()));
        return answer;
    }

    /**
     * {@code receive;dur=0.120, inflate;dur=0.310, decode;dur=1.204}, in milliseconds; no inflate
     * for identity.
     */
    static String serverTiming(Ingestion.Summary summary) {
        StringBuilder timing = new StringBuilder(entry("receive", summary.receiveNanos()));
        if (summary.encoding() != Compression.NONE) {
            timing.append(", ").append(entry("inflate", summary.inflateNanos()));
        }
        return timing.append(", ").append(entry("decode", summary.decodeNanos())).toString();
    }

    private static String entry(String name, long nanos) {
        return String.format(Locale.ROOT, "%s;dur=%.3f", name, nanos / 1e6);
    }

    /** Milliseconds to the microsecond. */
    private static double millis(long nanos) {
        return Math.round(nanos / 1e3) / 1e3;
    }
}
