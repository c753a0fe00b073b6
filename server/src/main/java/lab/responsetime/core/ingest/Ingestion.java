package lab.responsetime.core.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Format;

/**
 * The collector: reads one posted body — from the connection, through its Content-Encoding's
 * decoder, into its format's decoder — checks every object against docs/method.md#datasets (a
 * brought dataset's against its schema, {@link SchemaValidator}), keeps nothing, and says what it
 * read and how long each part took.
 *
 * <p>It streams: bytes are decompressed and parsed as they arrive, and each limit of {@link
 * IngestLimits} is enforced where it is passed — the body's bytes as they are read from the
 * connection, the decompressed bytes as the decompressor produces them (so a decompression bomb
 * stops inflating at the limit), the objects as they begin.
 *
 * <p>A refused body is then read to its end (up to the body limit, without decompressing), so that
 * a client still sending learns why rather than finding the connection reset — except after the
 * body limit itself or a failed read, when the connection is left to be closed.
 *
 * <p>Durations: <em>receive</em> is the time spent reading the connection (waiting for the client
 * and copying its bytes); <em>inflate</em> the time in the decompressor besides that;
 * <em>decode</em> the rest — parsing and checking.
 */
public final class Ingestion {
    private final IngestLimits limits;
    private final LongSupplier nanoClock;
    private final AtomicInteger running = new AtomicInteger();

    public Ingestion(IngestLimits limits) {
        this(limits, System::nanoTime);
    }

    Ingestion(IngestLimits limits, LongSupplier nanoClock) {
        this.limits = limits;
        this.nanoClock = nanoClock;
    }

    public IngestLimits limits() {
        return limits;
    }

    /** Bodies being read now. */
    public int running() {
        return running.get();
    }

    /**
     * What one body held and cost.
     *
     * @param format the format it was in (for XML, with elements or with attributes)
     * @param objects objects read and found valid
     * @param wireBytes bytes read from the connection
     * @param decodedBytes bytes after decompression (the same as {@code wireBytes} for identity)
     */
    public record Summary(
            ObjectKind<?> kind,
            Format format,
            Compression encoding,
            int objects,
            long wireBytes,
            long decodedBytes,
            long receiveNanos,
            long inflateNanos,
            long decodeNanos) {}

    /**
     * Reads {@code body} to its end as {@code encoding} (its Content-Encoding) and {@code format}
     * say, checking every object as one of {@code kind}'s.
     *
     * @throws InvalidBodyException the body is empty, malformed, not valid compressed data, or an
     *     object breaks a rule (the first problem)
     * @throws BodyTooLargeException the body passed a limit
     * @throws BodyNotReceivedException the connection failed before the body's end
     */
    public Summary ingest(ObjectKind<?> kind, Format format, Compression encoding, InputStream body)
            throws BodyRefusedException {
        running.incrementAndGet();
        long started = nanoClock.getAsLong();
        BoundedInputStream wire =
                new BoundedInputStream(
                        body,
                        limits.maxBodyBytes(),
                        "the body is larger than the limit of "
                                + limits.maxBodyBytes()
                                + " bytes (ingest.maxBodyBytes)",
                        Ingestion::notReceived,
                        nanoClock);
        BoundedInputStream decoded = null;
        InputStream decompressing = null;
        try {
            long opening = nanoClock.getAsLong();
            try {
                decompressing = encoding.decompressing(wire);
            } catch (BodyRefusedException refused) {
                throw refused;
            } catch (IOException | RuntimeException e) {
                throw corrupt(encoding, e);
            }
            long openNanos = nanoClock.getAsLong() - opening;
            decoded =
                    new BoundedInputStream(
                            decompressing,
                            limits.maxDecodedBytes(),
                            "the body is larger than the limit of "
                                    + limits.maxDecodedBytes()
                                    + " bytes once decompressed (ingest.maxDecodedBytes)",
                            encoding == Compression.NONE
                                    ? Ingestion::notReceived
                                    : problem -> corrupt(encoding, problem),
                            nanoClock);
            Format decodedAs;
            int objects;
            if (kind.schema().isPresent()) {
                SchemaValidator validator = SchemaValidator.of(kind, limits.maxObjects());
                decodedAs = format.codec().decodeObjects(kind, decoded, validator);
                if (decoded.read() >= 0) {
                    throw validator.listProblem("there is more after the end of the list");
                }
                objects = validator.count();
            } else {
                ObjectValidator validator = ObjectValidator.of(kind, limits.maxObjects());
                decodedAs = format.codec().decode(decoded, validator);
                if (decoded.read() >= 0) {
                    throw validator.listProblem("there is more after the end of the list");
                }
                objects = validator.count();
            }
            if (encoding != Compression.NONE && wire.read() >= 0) {
                throw new InvalidBodyException(
                        "there are bytes after the end of the "
                                + encoding.contentCoding()
                                + " data");
            }
            long elapsed = nanoClock.getAsLong() - started;
            long belowDecoder = decoded.nanos() + openNanos;
            long inflate = encoding == Compression.NONE ? 0 : belowDecoder - wire.nanos();
            long receive = encoding == Compression.NONE ? belowDecoder : wire.nanos();
            return new Summary(
                    kind,
                    decodedAs,
                    encoding,
                    objects,
                    wire.count(),
                    decoded.count(),
                    receive,
                    inflate,
                    elapsed - belowDecoder);
        } catch (BodyRefusedException refused) {
            throw settled(refused, kind, wire, decoded);
        } catch (IOException e) {
            // Every stream below turns what it throws into a refusal: this is a decoder's own
            // failure.
            throw settled(
                    new InvalidBodyException(
                            "the body could not be read as "
                                    + format.mediaType()
                                    + ": "
                                    + e.getMessage()),
                    kind,
                    wire,
                    decoded);
        } finally {
            close(decompressing);
            running.decrementAndGet();
        }
    }

    /**
     * The refusal to answer: an empty body said as such (whatever its decoder made of it), after
     * the rest of the body has been read where the connection can still carry it.
     */
    private static BodyRefusedException settled(
            BodyRefusedException refused,
            ObjectKind<?> kind,
            BoundedInputStream wire,
            BoundedInputStream decoded) {
        BodyRefusedException answer = refused;
        if (refused instanceof InvalidBodyException && wire.count() == 0 && wire.ended()) {
            answer =
                    new InvalidBodyException(
                            "the body is empty; send a list of at least one " + kind.singular());
        } else if (refused instanceof InvalidBodyException
                && decoded != null
                && decoded.count() == 0
                && decoded.ended()) {
            answer =
                    new InvalidBodyException(
                            "the body is empty once decompressed; send a list of at least one "
                                    + kind.singular());
        }
        boolean drainable = !wire.exceeded() && !(refused instanceof BodyNotReceivedException);
        answer.bodyReadToEnd(drainable && wire.drain());
        return answer;
    }

    /** The refusal of a body {@code encoding}'s decompressor could not read. */
    static InvalidBodyException corrupt(Compression encoding, Exception problem) {
        String detail =
                problem.getMessage() == null
                        ? problem.getClass().getSimpleName()
                        : problem.getMessage();
        return new InvalidBodyException(
                "the body is not valid "
                        + encoding.contentCoding()
                        + " data (Content-Encoding: "
                        + encoding.contentCoding()
                        + "): "
                        + detail);
    }

    private static BodyRefusedException notReceived(Exception problem) {
        return new BodyNotReceivedException(
                problem instanceof IOException io ? io : new IOException(problem));
    }

    /** Frees a decompressor's (native) memory; it leaves the connection's stream open. */
    private static void close(InputStream decompressing) {
        if (decompressing != null) {
            try {
                decompressing.close();
            } catch (IOException | RuntimeException e) {
                // Freeing failed: nothing more to do for this body.
            }
        }
    }
}
