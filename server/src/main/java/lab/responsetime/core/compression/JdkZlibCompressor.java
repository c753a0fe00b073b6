package lab.responsetime.core.compression;

/** A compressor with the JDK's {@code java.util.zip} (zlib): GZIP and deflate. */
abstract class JdkZlibCompressor implements Compressor {
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
