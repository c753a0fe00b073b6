package lab.responsetime.core.ingest;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.zip.Deflater;
import lab.responsetime.core.compression.Compression;

/**
 * Decompression bombs: bodies of a few hundred kilobytes to ten megabytes that expand to gigabytes
 * of {@code [} and spaces — the start of a JSON array that a parser keeps reading, so that only the
 * decoded limit can stop it. Built in a fraction of a second: gzip and deflate repeat one
 * byte-aligned run of deflate blocks, zstd repeats a frame; brotli (one stream, nothing to repeat)
 * is compressed whole.
 */
public final class Bombs {
    /** What the gzip, deflate and zstd bombs expand to. */
    public static final long TEN_GIB = 10L << 30;

    /** What the brotli bomb expands to (compressing it takes a quarter of a second). */
    public static final long ONE_GIB = 1L << 30;

    private static final int SEGMENT_BYTES = 64 << 20;
    private static final int WINDOW_BYTES = 32 << 10;

    private static byte[] gzip;
    private static byte[] deflate;
    private static byte[] zstd;
    private static byte[] br;

    private Bombs() {}

    /** The bomb of {@code encoding} (identity has none). */
    public static synchronized byte[] of(Compression encoding) {
        return switch (encoding) {
            case GZIP -> gzip == null ? gzip = gzip() : gzip;
            case DEFLATE -> deflate == null ? deflate = zlib() : deflate;
            case ZSTD -> zstd == null ? zstd = zstd() : zstd;
            case BR -> br == null ? br = brotli() : br;
            case NONE -> throw new IllegalArgumentException("identity expands nothing");
        };
    }

    /** What {@code encoding}'s bomb expands to. */
    public static long expandsTo(Compression encoding) {
        return encoding == Compression.BR ? ONE_GIB : TEN_GIB;
    }

    /**
     * Raw deflate of {@code [} and ten GiB of spaces: the first run fills the window with spaces,
     * then one run of 64 MiB of spaces, flushed to a byte boundary, is repeated (its matches only
     * ever reach back to spaces), then the final block. The checksum after it is left wrong: only a
     * decoder that inflated all ten GiB would see it.
     */
    private static byte[][] deflateRuns() {
        Deflater deflater = new Deflater(6, true);
        try {
            byte[] first = new byte[WINDOW_BYTES + 1];
            Arrays.fill(first, (byte) ' ');
            first[0] = '[';
            byte[] start = deflated(deflater, first, 1);
            byte[] spaces = new byte[1 << 16];
            Arrays.fill(spaces, (byte) ' ');
            byte[] run = deflated(deflater, spaces, SEGMENT_BYTES / spaces.length);
            deflater.finish();
            byte[] end = drain(deflater, Deflater.NO_FLUSH);
            return new byte[][] {start, run, end};
        } finally {
            deflater.end();
        }
    }

    private static byte[] deflated(Deflater deflater, byte[] input, int times) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[1 << 16];
        for (int i = 0; i < times; i++) {
            deflater.setInput(input);
            while (!deflater.needsInput()) {
                out.write(buffer, 0, deflater.deflate(buffer, 0, buffer.length, Deflater.NO_FLUSH));
            }
        }
        out.writeBytes(drain(deflater, Deflater.SYNC_FLUSH));
        return out.toByteArray();
    }

    private static byte[] drain(Deflater deflater, int flush) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[1 << 16];
        int n;
        while ((n = deflater.deflate(buffer, 0, buffer.length, flush)) > 0) {
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    private static byte[] repeated(byte[] header, byte[][] runs, long runsCount, byte[] trailer) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(header);
        out.writeBytes(runs[0]);
        for (long i = 0; i < runsCount; i++) {
            out.writeBytes(runs[1]);
        }
        out.writeBytes(runs[2]);
        out.writeBytes(trailer);
        return out.toByteArray();
    }

    private static byte[] gzip() {
        byte[] header = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};
        return repeated(header, deflateRuns(), TEN_GIB / SEGMENT_BYTES, new byte[8]);
    }

    private static byte[] zlib() {
        return repeated(
                new byte[] {0x78, (byte) 0x9c},
                deflateRuns(),
                TEN_GIB / SEGMENT_BYTES,
                new byte[4]);
    }

    /**
     * Frames of 64 MiB each (concatenated frames are one zstd body), the first starting with {@code
     * [}.
     */
    private static byte[] zstd() {
        byte[] spaces = new byte[SEGMENT_BYTES];
        Arrays.fill(spaces, (byte) ' ');
        byte[] frame = Zstd.compress(spaces, 1);
        spaces[0] = '[';
        byte[] first = Zstd.compress(spaces, 1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(first);
        for (long i = 1; i < TEN_GIB / SEGMENT_BYTES; i++) {
            out.writeBytes(frame);
        }
        return out.toByteArray();
    }

    private static byte[] brotli() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] spaces = new byte[1 << 16];
        Arrays.fill(spaces, (byte) ' ');
        try (var compressing = Compression.BR.codec().compress(out, 1)) {
            compressing.write(new byte[] {'['}, 0, 1);
            for (long written = 1; written < ONE_GIB; written += spaces.length) {
                compressing.write(spaces, 0, spaces.length);
            }
            compressing.finish();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
