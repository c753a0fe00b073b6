package lab.responsetime.resources;

import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyWriter;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.Locale;
import lab.responsetime.core.StudyRequest;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.computation.Admission;
import lab.responsetime.core.computation.CancelledException;
import lab.responsetime.core.computation.ComputationModel;
import lab.responsetime.core.formats.BodyWriter;

/**
 * Streams a {@link Payload} through {@link BodyWriter} and sets, just before the first byte leaves,
 * the {@code Server-Timing} header (and {@code Content-Length} when the whole body fit in the
 * held-back head). A heavy compression's slot and client watch ({@link Admission}) are held while
 * the body is written and freed after it, however it ends.
 *
 * <p>{@code Server-Timing} entries, in milliseconds:
 *
 * <ul>
 *   <li>{@code queue} — waiting for a computation slot (only with cm ≥ 1 or a heavy compression
 *       level, {@link Compression#isHeavy}: br 10–11, zstd 16–19);
 *   <li>{@code sort} — running the computation model, complete before the body starts (only with cm
 *       ≥ 1);
 *   <li>{@code serialize} — the format's encoding;
 *   <li>{@code compress} — all the compressor's work, its last block included (with every
 *       compression but none).
 * </ul>
 *
 * For a body that fit in the head, serialize and compress cover the whole body ({@code desc="whole
 * body"}). For a larger, streamed body the header has to leave before the body is done, so they
 * cover the part encoded until then, the first {@code headBytes} bytes on the wire ({@code
 * desc="first 65536 bytes"}).
 */
@Provider
@Produces(MediaType.WILDCARD)
public final class PayloadWriter implements MessageBodyWriter<Payload<?>> {
    private final BodyWriter bodyWriter;

    public PayloadWriter(BodyWriter bodyWriter) {
        this.bodyWriter = bodyWriter;
    }

    @Override
    public boolean isWriteable(
            Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return Payload.class.isAssignableFrom(type);
    }

    @Override
    public void writeTo(
            Payload<?> payload,
            Class<?> type,
            Type genericType,
            Annotation[] annotations,
            MediaType mediaType,
            MultivaluedMap<String, Object> headers,
            OutputStream entityStream)
            throws IOException {
        write(payload, headers, entityStream);
    }

    private <T> void write(
            Payload<T> payload, MultivaluedMap<String, Object> headers, OutputStream entityStream)
            throws IOException {
        StudyRequest<T> request = payload.request();
        try (Admission admission = payload.prepared().admission()) {
            bodyWriter.write(
                    request.format().codec(),
                    request.kind(),
                    payload.prepared().objects(),
                    request.compression(),
                    request.level(),
                    admission.cancellation(),
                    entityStream,
                    soFar -> {
                        headers.putSingle("Server-Timing", serverTiming(payload, soFar));
                        if (soFar.complete()) {
                            headers.putSingle(HttpHeaders.CONTENT_LENGTH, soFar.wireBytes());
                        }
                    });
        } catch (CancelledException e) {
            throw new BodyCancelledException(e);
        }
    }

    private String serverTiming(Payload<?> payload, BodyWriter.Timings soFar) {
        StudyRequest<?> request = payload.request();
        String covers =
                soFar.complete() ? "whole body" : "first " + bodyWriter.headBytes() + " bytes";
        StringBuilder header = new StringBuilder();
        if (request.needsSlot()) {
            header.append(entry("queue", payload.prepared().queueNanos(), null)).append(", ");
        }
        if (request.cm() != ComputationModel.CM0) {
            header.append(entry("sort", payload.prepared().sortNanos(), null)).append(", ");
        }
        header.append(entry("serialize", soFar.serializeNanos(), covers));
        if (request.compression() != Compression.NONE) {
            header.append(", ").append(entry("compress", soFar.compressNanos(), covers));
        }
        return header.toString();
    }

    private static String entry(String name, long nanos, String description) {
        String entry = String.format(Locale.ROOT, "%s;dur=%.3f", name, nanos / 1e6);
        return description == null ? entry : entry + ";desc=\"" + description + "\"";
    }
}
