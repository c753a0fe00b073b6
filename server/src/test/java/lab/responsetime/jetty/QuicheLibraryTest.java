package lab.responsetime.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which native QUIC library the h3 connector accepts: the set-up's build (quiche of the version
 * Jetty's binding needs, with the lab's fix of a lost stream end: docs/protocols.md), and no quiche
 * of that version without the fix. The second is shown with a stand-in library that the C compiler
 * builds, stating quiche's version and nothing else; without a compiler that test is skipped.
 */
class QuicheLibraryTest {
    private static final Path SET_UP = Path.of("../tools/quiche");

    @Test
    void theSetUpsLibraryIsAcceptedAndNamedWithItsFix() {
        assumeTrue(
                Files.isRegularFile(SET_UP.resolve(QuicheLibrary.FILE_NAME)),
                "no " + SET_UP.resolve(QuicheLibrary.FILE_NAME) + " (scripts/quiche.sh builds it)");
        assertThat(QuicheLibrary.use(SET_UP)).isNull();
        assertThat(QuicheLibrary.inUse())
                .isEqualTo(
                        "quiche "
                                + QuicheLibrary.EXPECTED_VERSION
                                + " with "
                                + QuicheLibrary.FIN_FIX);
    }

    @Test
    void aQuicheOfTheRightVersionWithoutTheFixIsRefused(@TempDir Path folder) throws Exception {
        Path source = folder.resolve("stand-in.c");
        Files.writeString(
                source,
                "const char *quiche_version(void) { return \""
                        + QuicheLibrary.EXPECTED_VERSION
                        + "\"; }\n");
        assumeTrue(
                compile(source, folder.resolve(QuicheLibrary.FILE_NAME)),
                "no C compiler (cc) to build a stand-in library");
        assertThat(QuicheLibrary.use(folder))
                .isEqualTo(
                        "the QUIC library "
                                + folder.resolve(QuicheLibrary.FILE_NAME).toAbsolutePath()
                                + " is quiche "
                                + QuicheLibrary.EXPECTED_VERSION
                                + " without the lab's fix of a lost stream end (stream-fin-ack;"
                                + " scripts/quiche.sh builds it with it)");
    }

    private static boolean compile(Path source, Path library) throws InterruptedException {
        try {
            Process cc =
                    new ProcessBuilder(
                                    "cc",
                                    "-shared",
                                    "-fPIC",
                                    "-o",
                                    library.toString(),
                                    source.toString())
                            .redirectErrorStream(true)
                            .start();
            cc.getInputStream().readAllBytes();
            return cc.waitFor(60, TimeUnit.SECONDS) && cc.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }
}
