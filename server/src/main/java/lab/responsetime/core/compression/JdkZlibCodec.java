package lab.responsetime.core.compression;

/** A codec with the JDK's {@code java.util.zip} (zlib): GZIP and deflate. */
abstract class JdkZlibCodec implements CompressionCodec {
    /** Compressed bytes a decompressor reads at once. */
    static final int READ_BUFFER_BYTES = 16 * 1024;

    /** The JDK's library name; java.util.zip does not say which zlib it uses. */
    @Override
    public final String library() {
        return "JDK java.util.zip (zlib)";
    }

    /** The JDK's version, which decides the zlib (bundled, or the system's). */
    @Override
    public final String version() {
        return Runtime.version().toString();
    }
}
