package lab.responsetime.resources;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.Providers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import lab.responsetime.core.dataset.BroughtDatasets;
import lab.responsetime.core.dataset.DatasetParser;
import lab.responsetime.core.dataset.DatasetRefusedException;
import lab.responsetime.core.dataset.GivenProto;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.dataset.SchemaInference;
import lab.responsetime.core.formats.Format;
import org.glassfish.jersey.media.multipart.FormDataBodyPart;
import org.glassfish.jersey.media.multipart.FormDataMultiPart;

/**
 * Datasets users bring (docs/datasets.md): {@code PUT /api/datasets/{name}} with a JSON array of
 * objects or JSON Lines (or, with the user's own {@code .proto}, a multipart body) creates or
 * replaces one and answers 201 with its schema; {@code GET} describes one (schema, {@code .proto},
 * an XML example in each style, object count, content hash); {@code DELETE} removes one; {@code GET
 * /api/datasets} lists them. A brought dataset is then served at {@code GET /api/{name}} exactly as
 * the Books are.
 */
@Path("/datasets")
@Produces(MediaType.APPLICATION_JSON)
public final class DatasetsResource {
    /** 413. */
    private static final int TOO_LARGE = 413;

    private final BroughtDatasets datasets;
    private final long maxUploadBytes;
    private final int maxObjects;

    /**
     * @param maxUploadBytes the largest body a PUT may send
     * @param maxObjects the most objects a dataset may have, after repeating
     */
    public DatasetsResource(BroughtDatasets datasets, long maxUploadBytes, int maxObjects) {
        this.datasets = datasets;
        this.maxUploadBytes = maxUploadBytes;
        this.maxObjects = maxObjects;
    }

    @GET
    public Map<String, Object> list() {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("datasets", datasets.all().stream().map(entry -> summary(entry)).toList());
        answer.put("max_upload_bytes", maxUploadBytes);
        return answer;
    }

    @GET
    @Path("{name}")
    public Response get(@PathParam("name") String name) {
        Optional<BroughtDatasets.Entry> entry = datasets.get(name);
        if (entry.isEmpty()) {
            return notFound(name);
        }
        return json(Response.Status.OK.getStatusCode(), describe(entry.get()));
    }

    @PUT
    @Path("{name}")
    @Consumes(MediaType.WILDCARD)
    public Response put(
            @PathParam("name") String name,
            @jakarta.ws.rs.core.Context UriInfo uri,
            @jakarta.ws.rs.core.Context HttpHeaders headers,
            @jakarta.ws.rs.core.Context Providers providers,
            InputStream body)
            throws IOException {
        MediaType type = headers.getMediaType();
        if (type == null || !type.isCompatible(MediaType.MULTIPART_FORM_DATA_TYPE)) {
            return bring(name, uri, headers, body, null);
        }
        FormDataMultiPart form;
        try {
            form =
                    providers
                            .getMessageBodyReader(
                                    FormDataMultiPart.class,
                                    FormDataMultiPart.class,
                                    new Annotation[0],
                                    type)
                            .readFrom(
                                    FormDataMultiPart.class,
                                    FormDataMultiPart.class,
                                    new Annotation[0],
                                    type,
                                    headers.getRequestHeaders(),
                                    body);
        } catch (IOException | RuntimeException e) {
            return ApiErrors.response(
                    Response.Status.BAD_REQUEST.getStatusCode(),
                    "the multipart/form-data body does not parse: "
                            + (e.getMessage() == null
                                    ? e.getClass().getSimpleName()
                                    : e.getMessage()));
        }
        try (form) {
            return putWithProto(name, uri, headers, form);
        }
    }

    /**
     * A PUT with the user's own {@code .proto} (docs/datasets.md#your-own-proto): a {@code
     * multipart/form-data} body with the parts {@code data} (the JSON or JSON Lines), {@code proto}
     * (the {@code .proto} text) and {@code message} (its message of one object); {@code proto} and
     * {@code message} go together and may both be left out.
     */
    private Response putWithProto(
            String name, UriInfo uri, HttpHeaders headers, FormDataMultiPart form)
            throws IOException {
        List<String> unknown =
                form.getFields().keySet().stream()
                        .filter(p -> !PARTS.contains(p))
                        .sorted()
                        .toList();
        FormDataBodyPart data = form.getField("data");
        FormDataBodyPart proto = form.getField("proto");
        FormDataBodyPart message = form.getField("message");
        if (!unknown.isEmpty() || data == null || (proto == null) != (message == null)) {
            return ApiErrors.response(
                    Response.Status.BAD_REQUEST.getStatusCode(),
                    "a multipart PUT /api/datasets/"
                            + name
                            + " has the parts data (the JSON or JSON Lines), and proto (the .proto)"
                            + " with message (the name of its message of one object) together or"
                            + " neither; got "
                            + (form.getFields().isEmpty()
                                    ? "none"
                                    : String.join(", ", form.getFields().keySet())));
        }
        BroughtDatasets.GivenProtoText given = null;
        if (proto != null) {
            byte[] text =
                    proto.getEntityAs(InputStream.class).readNBytes(GivenProto.MAX_CHARS * 4 + 1);
            if (text.length > GivenProto.MAX_CHARS * 4) {
                return ApiErrors.response(
                        TOO_LARGE,
                        "the .proto is larger than " + GivenProto.MAX_CHARS * 4 + " bytes");
            }
            given =
                    new BroughtDatasets.GivenProtoText(
                            new String(text, StandardCharsets.UTF_8),
                            new String(
                                            message.getEntityAs(InputStream.class).readNBytes(1024),
                                            StandardCharsets.UTF_8)
                                    .trim());
        }
        return bring(name, uri, headers, data.getEntityAs(InputStream.class), given);
    }

    /** The parts of a multipart PUT. */
    private static final Set<String> PARTS = Set.of("data", "proto", "message");

    private Response bring(
            String name,
            UriInfo uri,
            HttpHeaders headers,
            InputStream body,
            BroughtDatasets.GivenProtoText proto)
            throws IOException {
        MultivaluedMap<String, String> query = uri.getQueryParameters();
        int repeatTo = 0;
        for (Map.Entry<String, List<String>> parameter : query.entrySet()) {
            if (!parameter.getKey().equals("repeat") || parameter.getValue().size() != 1) {
                return ApiErrors.response(
                        Response.Status.BAD_REQUEST.getStatusCode(),
                        "PUT /api/datasets/"
                                + name
                                + " takes one query parameter, repeat (the number of objects to"
                                + " repeat the dataset's objects up to), got "
                                + parameter.getKey());
            }
            String value = parameter.getValue().get(0);
            if (!value.matches("[0-9]{1,9}")
                    || Integer.parseInt(value) < 1
                    || Integer.parseInt(value) > maxObjects) {
                return ApiErrors.response(
                        Response.Status.BAD_REQUEST.getStatusCode(),
                        "repeat must be an integer between 1 and "
                                + maxObjects
                                + ", got \""
                                + value
                                + "\"");
            }
            repeatTo = Integer.parseInt(value);
        }
        Optional<String> nameProblem = BroughtDatasets.nameProblem(name);
        if (nameProblem.isPresent()) {
            return ApiErrors.response(
                    Response.Status.BAD_REQUEST.getStatusCode(), nameProblem.get());
        }
        String length = headers.getHeaderString(HttpHeaders.CONTENT_LENGTH);
        long declared =
                length != null && length.matches("[0-9]{1,18}") ? Long.parseLong(length) : -1;
        if (declared > maxUploadBytes) {
            if (declared <= 2 * maxUploadBytes) {
                dropUpTo(body, 2 * maxUploadBytes);
            }
            return tooLarge();
        }
        try {
            BroughtDatasets.Entry entry =
                    datasets.put(name, body, maxUploadBytes, repeatTo, maxObjects, proto);
            return json(Response.Status.CREATED.getStatusCode(), describe(entry));
        } catch (DatasetParser.TooLargeException e) {
            dropUpTo(body, maxUploadBytes);
            return tooLarge();
        } catch (DatasetRefusedException e) {
            Map<String, Object> where = new LinkedHashMap<>();
            if (e.object() != null) {
                where.put("object", e.object());
            }
            if (e.field() != null) {
                where.put("field", e.field());
            }
            return ApiErrors.response(
                    ApiErrors.UNPROCESSABLE_CONTENT,
                    "dataset " + name + " refused: " + e.getMessage(),
                    where);
        }
    }

    @DELETE
    @Path("{name}")
    public Response delete(@PathParam("name") String name) throws IOException {
        Optional<String> nameProblem = BroughtDatasets.nameProblem(name);
        if (nameProblem.isPresent()) {
            return ApiErrors.response(
                    Response.Status.BAD_REQUEST.getStatusCode(), nameProblem.get());
        }
        if (!datasets.delete(name)) {
            return notFound(name);
        }
        return Response.noContent().header(HttpHeaders.CACHE_CONTROL, "no-store").build();
    }

    /**
     * Reads and drops what is left of a refused body, at most {@code limit} bytes more, before the
     * 413 goes out: a body of up to twice the limit is read to its end. A client that sends its
     * whole body before it reads an answer (any client that did not ask to continue; and the entity
     * parameter here reads, which asks the client to continue) then reads the refusal on a
     * connection left open, instead of having it destroyed by the reset a close over unread bytes
     * sends. A body larger than that is not waited for: the connection closes after the answer
     * ({@link UnreadBodyFilter}).
     */
    private static void dropUpTo(InputStream body, long limit) {
        byte[] scratch = new byte[8192];
        try {
            for (long left = limit; left > 0; ) {
                int n = body.read(scratch, 0, (int) Math.min(scratch.length, left));
                if (n < 0) {
                    return;
                }
                left -= n;
            }
        } catch (IOException clientGone) {
            // nothing to drop any more; the answer goes out (or nowhere) all the same
        }
    }

    private Response tooLarge() {
        return ApiErrors.response(
                TOO_LARGE,
                "the dataset is larger than the limit of "
                        + maxUploadBytes
                        + " bytes (dataset.maxUploadBytes)");
    }

    private Response notFound(String name) {
        return ApiErrors.response(
                Response.Status.NOT_FOUND.getStatusCode(),
                "no brought dataset named "
                        + name
                        + "; PUT /api/datasets/"
                        + name
                        + " brings one, GET /api/datasets lists them");
    }

    private static Response json(int status, Map<String, Object> body) {
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .entity(body)
                .build();
    }

    private static Map<String, Object> summary(BroughtDatasets.Entry entry) {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("name", entry.name());
        summary.put("objects", entry.count());
        summary.put("sha256", entry.sha256());
        summary.put("bytes", entry.bytes());
        return summary;
    }

    /** The schema the lab made, as the user sees it. */
    static Map<String, Object> describe(BroughtDatasets.Entry entry) {
        ObjectKind<Object[]> kind = entry.kind();
        Map<String, Object> answer = summary(entry);
        answer.put("fields", kind.schema().orElseThrow().describe());
        answer.put(
                "sort_keys",
                kind.sortSequence().stream().map(ObjectKind.SortKey::property).toList());
        Map<String, Object> proto = new LinkedHashMap<>();
        proto.put("message", kind.protoSchema().listMessage());
        proto.put("item_message", kind.protoSchema().itemMessage());
        proto.put("text", kind.protoSchema().text());
        proto.put("given", !kind.protoSchema().inferred());
        answer.put("protobuf", proto);
        List<Object[]> first = entry.dataset().objects().orElseThrow().subList(0, 1);
        Map<String, Object> xml = new LinkedHashMap<>();
        xml.put("elements", example(Format.XML, kind, first));
        xml.put("attributes", example(Format.XML_ATTRIBUTES, kind, first));
        answer.put("xml_example", xml);
        answer.put("max_depth", SchemaInference.MAX_DEPTH);
        return answer;
    }

    private static String example(Format format, ObjectKind<Object[]> kind, List<Object[]> rows) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            format.codec().encode(kind, rows, out);
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory failed", e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
