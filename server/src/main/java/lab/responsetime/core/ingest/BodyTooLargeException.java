package lab.responsetime.core.ingest;

/**
 * The body is larger than a limit of {@link IngestLimits}: on the wire, once decompressed, or in
 * objects. Thrown as soon as the limit is passed, without reading or inflating further.
 */
public final class BodyTooLargeException extends BodyRefusedException {
    BodyTooLargeException(String message) {
        super(message);
    }
}
