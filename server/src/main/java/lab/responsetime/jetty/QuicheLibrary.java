package lab.responsetime.jetty;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jetty.quic.quiche.jna.LibQuiche;

/**
 * The native QUIC library (quiche) that Jetty's HTTP/3 connector runs on, through Jetty's JNA
 * binding ({@link LibQuiche}): {@code libquiche.so} in a folder the set-up fills ({@code
 * scripts/quiche.sh}), of exactly the version that binding accepts, and with the lab's changes to
 * it ({@code scripts/quiche-patches/}): an unchanged quiche of that version loses the end of some
 * HTTP/3 answers, and Chromium then drops the connection (docs/protocols.md#http3-in-a-study).
 */
public final class QuicheLibrary {
    /** The library's file name, as JNA looks for the binding's library "quiche" on Linux. */
    static final String FILE_NAME = "libquiche.so";

    /** The quiche version Jetty's binding accepts, and no other. */
    public static final String EXPECTED_VERSION = LibQuiche.EXPECTED_QUICHE_VERSION;

    /**
     * The lab's change that the library must have, as its {@code quiche_lab_patches()} names it: a
     * stream's end (a fin of its own) is no longer dropped once the data before it was acked.
     */
    static final String FIN_FIX = "stream-fin-ack";

    /** What the server's h3 runs on, once {@link #use} accepted a library; null before. */
    private static volatile String inUse;

    private QuicheLibrary() {}

    /**
     * Checks the library in {@code directory} and, when it is the version Jetty's binding needs,
     * makes it the one that binding loads; returns null then, or else why it cannot serve.
     */
    public static String use(Path directory) {
        Path library = directory.resolve(FILE_NAME).toAbsolutePath();
        if (!Files.isRegularFile(library)) {
            return "the QUIC library " + library + " is missing (scripts/quiche.sh builds it)";
        }
        String version;
        try {
            Function quicheVersion =
                    NativeLibrary.getInstance(library.toString()).getFunction("quiche_version");
            version = (String) quicheVersion.invoke(String.class, new Object[0]);
        } catch (UnsatisfiedLinkError e) {
            return "the QUIC library " + library + " could not be loaded: " + e.getMessage();
        }
        if (!EXPECTED_VERSION.equals(version)) {
            return "the QUIC library "
                    + library
                    + " is quiche "
                    + version
                    + ", and Jetty's binding needs "
                    + EXPECTED_VERSION
                    + " (scripts/quiche.sh builds it)";
        }
        String patches = patchesOf(library);
        if (patches == null || !List.of(patches.split(",")).contains(FIN_FIX)) {
            return "the QUIC library "
                    + library
                    + " is quiche "
                    + version
                    + " without the lab's fix of a lost stream end ("
                    + FIN_FIX
                    + "; scripts/quiche.sh builds it with it)";
        }
        NativeLibrary.addSearchPath("quiche", library.getParent().toString());
        inUse = "quiche " + version + " with " + patches;
        return null;
    }

    /** The lab's changes the library names, or null when it names none (an unchanged quiche). */
    private static String patchesOf(Path library) {
        try {
            Function patches =
                    NativeLibrary.getInstance(library.toString()).getFunction("quiche_lab_patches");
            return (String) patches.invoke(String.class, new Object[0]);
        } catch (UnsatisfiedLinkError e) {
            return null;
        }
    }

    /**
     * What the server's h3 connector runs on ({@code quiche 0.29.1 with stream-fin-ack}), or null
     * when no library was accepted.
     */
    public static String inUse() {
        return inUse;
    }
}
