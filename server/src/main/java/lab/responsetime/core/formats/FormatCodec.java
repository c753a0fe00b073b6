package lab.responsetime.core.formats;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;
import lab.responsetime.core.dataset.ObjectKind;

/**
 * Everything the server does in one {@link Format}: writing a list for a GET ({@link Encoder}),
 * reading one posted to the collector ({@link ListDecoder}), and naming the libraries both use.
 * Adding a format is a class implementing this and a constant in {@link Format}.
 */
public interface FormatCodec extends Encoder, ListDecoder {
    /**
     * Reads a list of brought dataset {@code kind}'s objects (docs/datasets.md#collecting), exactly
     * the shape {@link #encode} writes for it, handing each object whole to {@code sink} as plain
     * values, which checks it against the dataset's schema.
     *
     * @return the format the body turned out to be in (for XML, with elements or with attributes)
     */
    Format decodeObjects(ObjectKind<?> kind, InputStream in, ObjectSink sink) throws IOException;

    /**
     * The libraries this format's encoding and decoding rely on, as {@code /api/info} records them.
     */
    List<Library> libraries();

    /**
     * Whether the format is text: a posted body's Content-Type may then add {@code charset=utf-8}.
     */
    default boolean text() {
        return false;
    }

    /**
     * What a body posted as {@code mediaType} may be, for the collector's messages: the media type
     * itself, with what decides between formats that share it.
     */
    default String postedAs(String mediaType) {
        return mediaType;
    }

    /**
     * The format library writing {@code objects} on its own, whole, the server's streaming {@link
     * #encode} aside: the benchmark's baseline. By default {@link #encode} itself, where that is
     * one call of the library.
     */
    default <T> LibraryWrite libraryWrite(ObjectKind<T> kind, List<T> objects) {
        return out -> encode(kind, objects, out);
    }

    /**
     * For a library that builds the whole document before writing it, that document built now, to
     * time its write alone; empty where nothing is built first.
     */
    default <T> Optional<LibraryWrite> prebuiltWrite(ObjectKind<T> kind, List<T> objects) {
        return Optional.empty();
    }

    /** One whole write of a list by the format's library. */
    @FunctionalInterface
    interface LibraryWrite {
        void writeTo(OutputStream out) throws IOException;
    }
}
