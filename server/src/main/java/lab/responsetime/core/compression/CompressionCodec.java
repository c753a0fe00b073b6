package lab.responsetime.core.compression;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The implementation of one {@link Compression}, both ways: compressing a GET answer and
 * decompressing a body posted to the collector, streaming. Adding a compression is a class
 * implementing this and a constant in {@link Compression}.
 */
public interface CompressionCodec {
    /**
     * Opens a stream that compresses what is written to it into {@code sink} at {@code level}
     * (within the compression's {@link Compression#levels()}). The stream never closes {@code
     * sink}.
     */
    CompressingStream compress(OutputStream sink, int level) throws IOException;

    /**
     * The decompressed body, read from {@code body} as its reader asks, so that it stops inflating
     * where its reader stops; closing it frees the decompressor's memory but leaves {@code body}
     * open. May read the stream's header.
     */
    InputStream decompress(InputStream body) throws IOException;

    /** The library that compresses, as {@code /api/info} names it. */
    String library();

    /** The library's version, read at run time. */
    String version();
}
