package lab.responsetime.core.compression;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * docs/method.md#compression: the per-request choice of compression, honoured whatever
 * Accept-Encoding says, and its level ({@code ?compression=br&level=11}). Each names its HTTP
 * {@code Content-Encoding} (the parameter itself), its levels and default, and the levels from
 * which it is heavy: seconds of CPU per 10,000 objects, so they take a computation slot as sorting
 * does.
 *
 * <p>The same compressions are the {@code Content-Encoding}s a body posted to the collector may
 * have ({@link #forContentEncoding}; {@code identity} is {@link #NONE}), each undone by its codec
 * streaming, as the body arrives. What a decompressor opens stops inflating where its reader stops
 * asking, and its memory per body is bounded by the format: zlib's 32 KiB window, brotli's window
 * (at most 16 MiB), and for zstd a window of at most {@link #ZSTD_WINDOW_LOG_MAX 8 MiB}, as HTTP's
 * zstd allows (RFC 9659).
 *
 * <p>This enum is the source of the catalogue's compressions: adding one is a {@link
 * CompressionCodec} and a constant here.
 */
public enum Compression {
    /** The body as the format encodes it. */
    NONE("none", "none", null, null, Integer.MAX_VALUE, ""),
    /**
     * gzip (RFC 1952), levels 1–9. Default 6: zlib's own default level, the one Apache's
     * mod_deflate and Jetty's gzip handler use. Level 0 would only wrap stored blocks in gzip
     * framing: ask for {@code none} instead. No level is heavy (a fraction of a second of CPU even
     * at 9 for the lab's largest bodies).
     */
    GZIP("gzip", "GZIP", new GzipCodec(), new Levels(1, 9, 6), Integer.MAX_VALUE, ""),
    /**
     * HTTP's deflate: a zlib stream (RFC 1950), levels 1–9. Default 6, as for gzip: zlib's default,
     * used by Apache's mod_deflate and Jetty. Level 0 would be stored blocks: use {@code none}.
     */
    DEFLATE(
            "deflate",
            "deflate (zlib)",
            new DeflateCodec(),
            new Levels(1, 9, 6),
            Integer.MAX_VALUE,
            ""),
    /**
     * Brotli (RFC 7932), levels (qualities) 0–11. Default 6: ngx_brotli's default {@code
     * brotli_comp_level}, the level its authors chose for compressing dynamic content on the fly
     * (11, the library's default, is meant for static files compressed once). Levels 10 and 11 are
     * heavy: seconds of CPU for 10,000 Books as JSON, many times level 9.
     */
    BR("br", "Brotli", new BrotliCodec(), new Levels(0, 11, 6), 10, ""),
    /**
     * Zstandard (RFC 8878), levels 1–19. Default 3: zstd's own default level. Levels 16–19 are
     * heavy (btopt/btultra strategies: seconds of CPU for 10,000 Books as JSON, and tens of MB of
     * native memory per stream). The "ultra" levels 20–22 are refused: their windows and tables
     * need hundreds of MB per stream.
     */
    ZSTD(
            "zstd",
            "zstd",
            new ZstdCodec(),
            new Levels(1, 19, 3),
            16,
            "; the ultra levels 20–22 are refused: they need hundreds of MB of memory per stream");

    /**
     * The largest zstd window a posted body may need, as a power of two: 8 MiB, the most RFC 9659
     * lets an HTTP recipient need (browsers decode no more), and the window of the server's own
     * level 19.
     */
    public static final int ZSTD_WINDOW_LOG_MAX = 23;

    /** {@link #NONE}'s name in a request's {@code Content-Encoding}. */
    private static final String IDENTITY = "identity";

    private final String parameter;
    private final String label;
    private final CompressionCodec codec;
    private final Levels levels;
    private final int heavyFrom;
    private final String refusedLevels;

    Compression(
            String parameter,
            String label,
            CompressionCodec codec,
            Levels levels,
            int heavyFrom,
            String refusedLevels) {
        this.parameter = parameter;
        this.label = label;
        this.codec = codec;
        this.levels = levels;
        this.heavyFrom = heavyFrom;
        this.refusedLevels = refusedLevels;
    }

    /**
     * Levels of a compression.
     *
     * @param defaultLevel the level of a request that names none
     */
    public record Levels(int min, int max, int defaultLevel) {}

    /** The name a reader sees in reports and on the page. */
    public String label() {
        return label;
    }

    /** The value of the {@code compression} query parameter. */
    public String parameter() {
        return parameter;
    }

    /** The answer's {@code Content-Encoding}: the parameter itself; none for {@link #NONE}. */
    public Optional<String> contentEncoding() {
        return this == NONE ? Optional.empty() : Optional.of(parameter);
    }

    /** The levels a request may ask for; none for {@link #NONE}, which takes no level. */
    public Optional<Levels> levels() {
        return Optional.ofNullable(levels);
    }

    /**
     * What compresses and decompresses, for every compression but {@link #NONE}.
     *
     * @throws IllegalStateException for NONE
     */
    public CompressionCodec codec() {
        if (codec == null) {
            throw new IllegalStateException("compression=none has no codec");
        }
        return codec;
    }

    /**
     * Its name in a posted body's {@code Content-Encoding}: the parameter, and {@code identity} for
     * {@link #NONE}.
     */
    public String contentCoding() {
        return this == NONE ? IDENTITY : parameter;
    }

    /**
     * The compression a posted body's {@code Content-Encoding} names (case-insensitive), {@link
     * #NONE} when it has none; empty for an unknown one or a list of several.
     */
    public static Optional<Compression> forContentEncoding(String header) {
        if (header == null) {
            return Optional.of(NONE);
        }
        String name = header.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(c -> c.contentCoding().equals(name)).findFirst();
    }

    /**
     * Every content coding, for messages and headers: {@code identity, gzip, deflate, br, zstd}.
     */
    public static String contentCodings() {
        return Arrays.stream(values())
                .map(Compression::contentCoding)
                .collect(Collectors.joining(", "));
    }

    /**
     * The body {@code compressed} holds, decompressed as it is read; {@code compressed} itself for
     * {@link #NONE}. Closing it frees the decompressor but leaves {@code compressed} open.
     */
    public InputStream decompressing(InputStream compressed) throws IOException {
        return this == NONE ? compressed : codec.decompress(compressed);
    }

    /**
     * Whether {@code level} is heavy for this compression: seconds of CPU on the lab's larger
     * bodies, so the request takes a computation slot (see {@code ComputationLimiter}).
     */
    public boolean isHeavy(int level) {
        return level >= heavyFrom;
    }

    /** The first heavy level; none when no level is heavy. */
    public Optional<Integer> heavyFrom() {
        return heavyFrom == Integer.MAX_VALUE ? Optional.empty() : Optional.of(heavyFrom);
    }

    /**
     * What the {@code level} parameter allows with this compression (not NONE), for error messages.
     */
    public String levelRule() {
        return "an integer between "
                + levels.min()
                + " and "
                + levels.max()
                + " for compression="
                + parameter
                + " (default "
                + levels.defaultLevel()
                + refusedLevels
                + ")";
    }

    /** Every compression that takes a level with its range, e.g. {@code gzip 1–9, br 0–11}. */
    public static String levelRanges() {
        return Arrays.stream(values())
                .filter(c -> c.levels != null)
                .map(c -> c.parameter + " " + c.levels.min() + "–" + c.levels.max())
                .collect(Collectors.joining(", "));
    }
}
