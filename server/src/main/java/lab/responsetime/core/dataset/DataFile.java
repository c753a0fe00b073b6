package lab.responsetime.core.dataset;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;
import lab.responsetime.api.Book;
import lab.responsetime.api.Video;

/**
 * The binary file one dataset is stored in between starts.
 *
 * <p>Layout: a fixed header, then the objects one after another.
 *
 * <pre>
 * magic "RTLDATA1" | file format version (int) | generator version (int) | kind (byte 'B'/'V')
 * | seed (long) | size (int) | payload length (long) | payload CRC-32C (int) | payload…
 * </pre>
 *
 * Strings are an unsigned short length and that many ISO-8859-1 bytes (every generated character is
 * ASCII); ints and floats are big-endian; booleans one byte. A file is written to a temporary name
 * and renamed into place, so a crash never leaves a half file under the real name. Reading checks
 * every header field against what is expected, the file's length, the checksum and the enumerated
 * values, and says exactly what did not match.
 */
public final class DataFile {
    private static final byte[] MAGIC = "RTLDATA1".getBytes(StandardCharsets.US_ASCII);

    /** Version of this layout; bump when it changes. */
    static final int FORMAT_VERSION = 1;

    static final int HEADER_BYTES = MAGIC.length + 4 + 4 + 1 + 8 + 4 + 8 + 4;
    private static final int IO_BUFFER_BYTES = 1 << 20;
    private static final int MAX_STRING_BYTES = 0xFFFF;

    private DataFile() {}

    /** The file a kind's dataset lives in, inside the data directory. */
    public static Path path(Path dataDirectory, ObjectKind<?> kind) {
        return dataDirectory.resolve(kind.plural() + ".bin");
    }

    /** Writes {@code objects} atomically to {@code file}. */
    public static <T> void write(Path file, ObjectKind<T> kind, long seed, List<T> objects)
            throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        // A plain name (not createTempFile, which makes owner-only files) unique to this process.
        Path temporary =
                directory.resolve(
                        file.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try {
            CRC32C crc = new CRC32C();
            long payloadBytes;
            try (FileChannel channel =
                    FileChannel.open(
                            temporary,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.TRUNCATE_EXISTING,
                            StandardOpenOption.WRITE)) {
                channel.position(HEADER_BYTES);
                CountingOutputStream counter =
                        new CountingOutputStream(
                                new CheckedOutputStream(
                                        java.nio.channels.Channels.newOutputStream(channel), crc));
                DataOutputStream out =
                        new DataOutputStream(new BufferedOutputStream(counter, IO_BUFFER_BYTES));
                RecordCodec<T> codec = codec(kind);
                for (T object : objects) {
                    codec.write(object, out);
                }
                out.flush();
                payloadBytes = counter.count;
                ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
                header.put(MAGIC)
                        .putInt(FORMAT_VERSION)
                        .putInt(DatasetGenerator.VERSION)
                        .put(kindCode(kind))
                        .putLong(seed)
                        .putInt(objects.size())
                        .putLong(payloadBytes)
                        .putInt((int) crc.getValue())
                        .flip();
                channel.write(header, 0);
                channel.force(true);
            }
            moveIntoPlace(temporary, file);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /**
     * Reads the dataset in {@code file}, which must have been made for exactly this kind, seed and
     * size by the current generator.
     *
     * @throws DataFileException if the file is missing, damaged, truncated or mismatching; its
     *     message says which
     */
    public static <T> List<T> read(Path file, ObjectKind<T> kind, long seed, int size)
            throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new DataFileException(file + " does not exist");
        }
        long fileBytes = Files.size(file);
        if (fileBytes < HEADER_BYTES) {
            throw new DataFileException(
                    file + " is truncated: " + fileBytes + " bytes, shorter than its header");
        }
        try (InputStream raw = Files.newInputStream(file)) {
            DataInputStream headerIn = new DataInputStream(raw);
            byte[] magic = new byte[MAGIC.length];
            headerIn.readFully(magic);
            if (!java.util.Arrays.equals(magic, MAGIC)) {
                throw new DataFileException(
                        file + " is not a Response Time Lab data file (bad magic)");
            }
            expect(file, "file format version", FORMAT_VERSION, headerIn.readInt());
            expect(file, "generator version", DatasetGenerator.VERSION, headerIn.readInt());
            expect(file, "object kind", kindCode(kind), headerIn.readByte());
            expect(file, "seed", seed, headerIn.readLong());
            expect(file, "size", size, headerIn.readInt());
            long payloadBytes = headerIn.readLong();
            int expectedCrc = headerIn.readInt();
            if (fileBytes != HEADER_BYTES + payloadBytes) {
                throw new DataFileException(
                        file
                                + " is "
                                + fileBytes
                                + " bytes but its header says "
                                + (HEADER_BYTES + payloadBytes)
                                + " (truncated or extended)");
            }
            CRC32C crc = new CRC32C();
            DataInputStream in =
                    new DataInputStream(
                            new BufferedInputStream(
                                    new CheckedInputStream(raw, crc), IO_BUFFER_BYTES));
            RecordCodec<T> codec = codec(kind);
            List<T> objects = new ArrayList<>(size);
            byte[] scratch = new byte[MAX_STRING_BYTES];
            try {
                for (int i = 0; i < size; i++) {
                    objects.add(codec.read(in, scratch));
                }
            } catch (EOFException e) {
                throw new DataFileException(file + " ends before its " + size + " objects");
            } catch (DataFileException e) {
                throw new DataFileException(
                        file + ": object " + objects.size() + ": " + e.getMessage());
            }
            if (in.read() != -1) {
                throw new DataFileException(file + " has bytes after its " + size + " objects");
            }
            if ((int) crc.getValue() != expectedCrc) {
                throw new DataFileException(file + " fails its checksum (damaged)");
            }
            return objects;
        }
    }

    private static void expect(Path file, String field, long expected, long actual)
            throws DataFileException {
        if (expected != actual) {
            throw new DataFileException(
                    file + " has " + field + " " + actual + ", expected " + expected);
        }
    }

    private static byte kindCode(ObjectKind<?> kind) {
        return (byte) (kind == ObjectKind.BOOKS ? 'B' : 'V');
    }

    @SuppressWarnings("unchecked")
    private static <T> RecordCodec<T> codec(ObjectKind<T> kind) {
        return (RecordCodec<T>) (kind == ObjectKind.BOOKS ? BOOK_CODEC : VIDEO_CODEC);
    }

    /** Thrown when a data file cannot be used; the message says why. */
    public static final class DataFileException extends IOException {
        DataFileException(String message) {
            super(message);
        }
    }

    private interface RecordCodec<T> {
        void write(T object, DataOutputStream out) throws IOException;

        T read(DataInputStream in, byte[] scratch) throws IOException;
    }

    private static final RecordCodec<Book> BOOK_CODEC =
            new RecordCodec<>() {
                @Override
                public void write(Book b, DataOutputStream out) throws IOException {
                    writeString(out, b.title());
                    writeString(out, b.author());
                    writeString(out, b.description());
                    writeString(out, b.image());
                    out.writeInt(b.numInStock());
                    out.writeFloat(b.price());
                    out.writeByte(SpecFields.BOOK_TYPES.indexOf(b.type()));
                    out.writeBoolean(b.onSale());
                }

                @Override
                public Book read(DataInputStream in, byte[] scratch) throws IOException {
                    return new Book(
                            readString(in, scratch),
                            readString(in, scratch),
                            readString(in, scratch),
                            readString(in, scratch),
                            in.readInt(),
                            in.readFloat(),
                            choose(SpecFields.BOOK_TYPES, in.readByte(), "book type"),
                            in.readBoolean());
                }
            };

    private static final RecordCodec<Video> VIDEO_CODEC =
            new RecordCodec<>() {
                @Override
                public void write(Video v, DataOutputStream out) throws IOException {
                    writeString(out, v.uri());
                    writeString(out, v.title());
                    out.writeByte(SpecFields.VIDEO_FORMATS.indexOf(v.format()));
                    out.writeByte(SpecFields.VIDEO_HEIGHTS.indexOf(v.height()));
                    out.writeInt(v.length());
                    out.writeInt(v.views());
                    out.writeBoolean(v.enabled());
                }

                @Override
                public Video read(DataInputStream in, byte[] scratch) throws IOException {
                    String uri = readString(in, scratch);
                    String title = readString(in, scratch);
                    String format = choose(SpecFields.VIDEO_FORMATS, in.readByte(), "video format");
                    int resolution = in.readByte();
                    int height = choose(SpecFields.VIDEO_HEIGHTS, resolution, "video resolution");
                    int width = SpecFields.VIDEO_WIDTHS.get(resolution);
                    return new Video(
                            uri,
                            title,
                            format,
                            height,
                            width,
                            in.readInt(),
                            in.readInt(),
                            in.readBoolean());
                }
            };

    /** Enumerated values come back as the generator's own instances, shared by all objects. */
    private static <V> V choose(List<V> values, int index, String what) throws DataFileException {
        if (index < 0 || index >= values.size()) {
            throw new DataFileException("unknown " + what + " index " + index + " (damaged)");
        }
        return values.get(index);
    }

    private static void writeString(DataOutputStream out, String value) throws IOException {
        byte[] bytes = value.getBytes(StandardCharsets.ISO_8859_1);
        if (bytes.length > MAX_STRING_BYTES) {
            throw new IOException(
                    "string of " + bytes.length + " bytes is too long for a data file");
        }
        out.writeShort(bytes.length);
        out.write(bytes);
    }

    private static String readString(DataInputStream in, byte[] scratch) throws IOException {
        int length = in.readUnsignedShort();
        in.readFully(scratch, 0, length);
        return new String(scratch, 0, length, StandardCharsets.ISO_8859_1);
    }

    private static final class CountingOutputStream extends java.io.FilterOutputStream {
        long count;

        CountingOutputStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }

    /**
     * Moves a fully written temporary file over {@code file}, atomically where the file system can,
     * so that readers see the old file or the new one, never a half-written one.
     */
    static void moveIntoPlace(Path temporary, Path file) throws IOException {
        try {
            Files.move(
                    temporary,
                    file,
                    StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
