package lab.responsetime.core.ingest;

/**
 * How much one posted body may be: on the wire, once decompressed, and in objects. A body past a
 * limit is refused as soon as it passes it (see {@link BodyTooLargeException}).
 *
 * @param maxBodyBytes bytes on the wire, as sent (compressed or not)
 * @param maxDecodedBytes bytes after decompression, which is what the format's decoder reads
 * @param maxObjects objects in the list
 */
public record IngestLimits(long maxBodyBytes, long maxDecodedBytes, int maxObjects) {
    public IngestLimits {
        if (maxBodyBytes < 1 || maxDecodedBytes < 1 || maxObjects < 1) {
            throw new IllegalArgumentException(
                    "every ingest limit must be positive: "
                            + maxBodyBytes
                            + ", "
                            + maxDecodedBytes
                            + ", "
                            + maxObjects);
        }
    }
}
