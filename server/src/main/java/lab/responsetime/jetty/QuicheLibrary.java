package lab.responsetime.jetty;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jetty.quic.quiche.jna.LibQuiche;

/**
 * The native QUIC library (quiche) that Jetty's HTTP/3 connector runs on, through Jetty's JNA
 * binding ({@link LibQuiche}): {@code libquiche.so} in a folder the set-up fills ({@code
 * scripts/quiche.sh}), of exactly the version that binding accepts.
 */
public final class QuicheLibrary {
    /** The library's file name, as JNA looks for the binding's library "quiche" on Linux. */
    static final String FILE_NAME = "libquiche.so";

    /** The quiche version Jetty's binding accepts, and no other. */
    public static final String EXPECTED_VERSION = LibQuiche.EXPECTED_QUICHE_VERSION;

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
        NativeLibrary.addSearchPath("quiche", library.getParent().toString());
        return null;
    }
}
