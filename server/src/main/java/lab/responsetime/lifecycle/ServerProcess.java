package lab.responsetime.lifecycle;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Who this server is, for a study run that finds it answering on its port and must decide whether
 * to use it (experiments/study-server.js): its process id, the folder it was started from and the
 * commit checked out there, when it started, and the process whose end stops it ({@code exitWith}).
 *
 * @param commit the checkout's commit ({@code git rev-parse HEAD} at start), or null outside one
 * @param exitWith the process whose end stops the server, or null
 */
public record ServerProcess(
        long pid, Path workingDirectory, String commit, Instant startedAt, Long exitWith) {

    /** This JVM, started from the working directory, serving {@code exitWith} (or null). */
    public static ServerProcess current(Long exitWith) {
        Path directory = Path.of("").toAbsolutePath();
        ProcessHandle self = ProcessHandle.current();
        return new ServerProcess(
                self.pid(),
                directory,
                commitOf(directory),
                self.info().startInstant().orElse(Instant.now()),
                exitWith);
    }

    /** What {@code /api/info} says under {@code process}. */
    public Map<String, Object> describe() {
        Map<String, Object> process = new LinkedHashMap<>();
        process.put("pid", pid);
        process.put("working_directory", workingDirectory.toString());
        process.put("commit", commit);
        process.put("started_at", startedAt.toString());
        process.put("exit_with", exitWith);
        return process;
    }

    private static String commitOf(Path directory) {
        try {
            Process git =
                    new ProcessBuilder("git", "rev-parse", "HEAD")
                            .directory(directory.toFile())
                            .redirectError(ProcessBuilder.Redirect.DISCARD)
                            .start();
            String out;
            try (InputStream stdout = git.getInputStream()) {
                out = new String(stdout.readAllBytes(), StandardCharsets.US_ASCII).trim();
            }
            if (!git.waitFor(10, TimeUnit.SECONDS)) {
                git.destroyForcibly();
                return null;
            }
            return git.exitValue() == 0 && out.matches("[0-9a-f]{40}") ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
