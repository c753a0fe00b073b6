package lab.responsetime.core.ingest;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.decoder.BrotliInputStream;
import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipException;
import lab.responsetime.core.compression.Compression;

/**
 * The {@code Content-Encoding}s a posted body may have: the ones the server answers with (SPEC §3),
 * each undone by a well-kept library — the JDK's zlib for gzip and deflate, brotli4j's binding of
 * Google's decoder for br, zstd-jni for zstd — streaming, as the body arrives.
 *
 * <p>What each opens reads the compressed stream and stops inflating where its reader stops asking
 * ({@link BoundedInputStream} asks for no more than the decoded limit). Memory per body is bounded
 * by the format of each: zlib's 32 KiB window, brotli's window (at most 16 MiB), and for zstd a
 * window of at most {@link #ZSTD_WINDOW_LOG_MAX 8 MiB}, as HTTP's zstd allows (RFC 9659); a frame
 * asking for more is refused.
 */
public enum ContentEncoding {
    /** The body as the format encodes it. */
    IDENTITY("identity", Compression.NONE) {
        @Override
        InputStream open(InputStream body) {
            return body;
        }
    },
    /**
     * gzip (RFC 1952) with the JDK's {@link GZIPInputStream}, which also reads a body of several
     * members, and ignores bytes after the last member that arrive with it.
     */
    GZIP("gzip", Compression.GZIP) {
        @Override
        InputStream open(InputStream body) throws IOException {
            return new GZIPInputStream(body, BUFFER_BYTES);
        }
    },
    /**
     * HTTP's deflate: a zlib stream (RFC 1950), as the server's DeflateCompressor writes it;
     * nothing may follow it.
     */
    DEFLATE("deflate", Compression.DEFLATE) {
        @Override
        InputStream open(InputStream body) {
            return new ZlibInputStream(body);
        }
    },
    /** Brotli (RFC 7932) with brotli4j. */
    BR("br", Compression.BR) {
        @Override
        InputStream open(InputStream body) throws IOException {
            Brotli4jLoader.ensureAvailability();
            return new BrotliInputStream(body, BUFFER_BYTES);
        }
    },
    /** Zstandard (RFC 8878) with zstd-jni; one frame or several, windows up to 8 MiB. */
    ZSTD("zstd", Compression.ZSTD) {
        @Override
        InputStream open(InputStream body) throws IOException {
            ZstdInputStreamNoFinalizer zstd =
                    new ZstdInputStreamNoFinalizer(body, RecyclingBufferPool.INSTANCE);
            try {
                return zstd.setLongMax(ZSTD_WINDOW_LOG_MAX);
            } catch (IOException | RuntimeException e) {
                zstd.close();
                throw e;
            }
        }
    };

    /**
     * The largest zstd window accepted, as a power of two: 8 MiB, the most RFC 9659 lets an HTTP
     * recipient need (browsers decode no more), and the window of the server's own level 19.
     */
    public static final int ZSTD_WINDOW_LOG_MAX = 23;

    /** Compressed bytes read at once. */
    static final int BUFFER_BYTES = 16 * 1024;

    private final String token;
    private final Compression compression;

    ContentEncoding(String token, Compression compression) {
        this.token = token;
        this.compression = compression;
    }

    /** Its name in {@code Content-Encoding}. */
    public String token() {
        return token;
    }

    /** The compression of GET answers this undoes. */
    public Compression compression() {
        return compression;
    }

    /**
     * The encoding a request's {@code Content-Encoding} names (case-insensitive), identity when it
     * has none; empty for an unknown one or a list of several.
     */
    public static Optional<ContentEncoding> forHeader(String header) {
        if (header == null) {
            return Optional.of(IDENTITY);
        }
        String name = header.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(e -> e.token.equals(name)).findFirst();
    }

    /** Every token, for messages and headers: {@code identity, gzip, deflate, br, zstd}. */
    public static String tokens() {
        return Arrays.stream(values())
                .map(ContentEncoding::token)
                .collect(Collectors.joining(", "));
    }

    /**
     * The decoded body, read from {@code body}; closing it frees the decoder's memory but leaves
     * {@code body} open. May read the stream's header.
     */
    abstract InputStream open(InputStream body) throws IOException;

    /** The refusal of a body this encoding's decoder could not read. */
    InvalidBodyException corrupt(Exception problem) {
        String detail =
                problem.getMessage() == null
                        ? problem.getClass().getSimpleName()
                        : problem.getMessage();
        return new InvalidBodyException(
                "the body is not valid "
                        + token
                        + " data (Content-Encoding: "
                        + token
                        + "): "
                        + detail);
    }

    /**
     * A zlib stream that must end where the body ends: bytes left over after its end are refused
     * (the JDK's stream would drop them). Closing it ends its inflater, not the stream below.
     */
    private static final class ZlibInputStream extends InflaterInputStream {
        ZlibInputStream(InputStream in) {
            super(in, new Inflater(), BUFFER_BYTES);
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n < 0 && inf.needsDictionary()) {
                throw new ZipException(
                        "the zlib stream needs a preset dictionary, which HTTP's deflate has none"
                                + " of");
            }
            if (n < 0 && inf.getRemaining() > 0) {
                throw new ZipException(
                        inf.getRemaining() + " bytes follow the end of the zlib stream");
            }
            return n;
        }

        @Override
        public void close() {
            inf.end();
        }
    }
}
