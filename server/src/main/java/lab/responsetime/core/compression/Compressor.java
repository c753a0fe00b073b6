package lab.responsetime.core.compression;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The implementation of one {@link Compression}: a library that compresses, opened over a sink at a
 * level. Adding a compression is a class implementing this and a constant in {@link Compression}.
 */
public interface Compressor {
    /**
     * Opens a stream that compresses what is written to it into {@code sink} at {@code level}
     * (within the compression's {@link Compression#levels()}). The stream never closes {@code
     * sink}.
     */
    CompressingStream open(OutputStream sink, int level) throws IOException;

    /** The library that compresses, as {@code /api/info} names it. */
    String library();

    /** The library's version, read at run time. */
    String version();
}
