package lab.responsetime.core.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Counts the bytes read through it and the time spent reading them below it, and refuses to read
 * past a limit: a read never asks the stream below for more than one byte beyond the limit, and
 * that byte throws {@link BodyTooLargeException}. Over a decompressor, this is what stops the
 * inflating: a decompressor produces no more than it is asked for (brotli at most one window more).
 *
 * <p>Whatever else the stream below throws is turned into a refusal by {@code failure}: over the
 * connection, the body was not received; over a decompressor, the body is not valid compressed
 * data. Closing it does not close the stream below: whoever opened that closes it.
 */
final class BoundedInputStream extends InputStream {
    private final InputStream below;
    private final long limit;
    private final String tooLarge;
    private final Function<Exception, BodyRefusedException> failure;
    private final LongSupplier nanoClock;
    private final byte[] oneByte = new byte[1];
    private long count;
    private long nanos;
    private boolean ended;
    private boolean exceeded;

    /**
     * @param tooLarge the message of the refusal once more than {@code limit} bytes came
     * @param failure the refusal for anything else the stream below throws
     */
    BoundedInputStream(
            InputStream below,
            long limit,
            String tooLarge,
            Function<Exception, BodyRefusedException> failure,
            LongSupplier nanoClock) {
        this.below = below;
        this.limit = limit;
        this.tooLarge = tooLarge;
        this.failure = failure;
        this.nanoClock = nanoClock;
    }

    /** Bytes read through this stream. */
    long count() {
        return count;
    }

    /** Time spent inside reads of the stream below. */
    long nanos() {
        return nanos;
    }

    /** Whether the stream below ended (a read returned -1). */
    boolean ended() {
        return ended;
    }

    /** Whether more than the limit came. */
    boolean exceeded() {
        return exceeded;
    }

    @Override
    public int read() throws IOException {
        int n = read(oneByte, 0, 1);
        return n < 0 ? -1 : oneByte[0] & 0xFF;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (exceeded) {
            throw new BodyTooLargeException(tooLarge);
        }
        int asked = (int) Math.min(length, limit - count + 1);
        long started = nanoClock.getAsLong();
        int n;
        try {
            n = below.read(buffer, offset, asked);
        } catch (BodyRefusedException refused) {
            throw refused;
        } catch (IOException | RuntimeException e) {
            throw failure.apply(e);
        } finally {
            nanos += nanoClock.getAsLong() - started;
        }
        if (n < 0) {
            ended = true;
            return n;
        }
        count += n;
        if (count > limit) {
            exceeded = true;
            throw new BodyTooLargeException(tooLarge);
        }
        return n;
    }

    @Override
    public int available() throws IOException {
        try {
            return below.available();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * Reads and drops the rest, up to the limit, so that a client still sending learns of a refusal
     * instead of finding its connection reset; returns whether the stream below ended.
     */
    boolean drain() {
        byte[] scratch = new byte[8192];
        try {
            while (!ended && !exceeded) {
                read(scratch, 0, scratch.length);
            }
        } catch (IOException e) {
            return false;
        }
        return ended;
    }

    /** Leaves the stream below open. */
    @Override
    public void close() {}
}
