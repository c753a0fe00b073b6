package lab.responsetime.lifecycle;

import io.dropwizard.lifecycle.Managed;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops the server when the process it serves has gone ({@code exitWith}, docs/configuration.md): a
 * study run, a test or a benchmark that started it and was killed, {@code kill -9} included, never
 * leaves it running. The server then exits as on SIGTERM: its shutdown hooks stop Jetty gracefully,
 * computations in progress are cancelled. {@link ProcessHandle} knows a process by its id and start
 * time, so a process id the system hands to a later process is not taken for it.
 */
public final class ExitWithProcess implements Managed {
    private static final Logger LOG = LoggerFactory.getLogger(ExitWithProcess.class);

    private final long pid;
    private final Runnable exit;

    /**
     * @param pid the process whose end stops the server
     * @param exit what stops the server (the JVM's exit, which runs its shutdown hooks)
     */
    public ExitWithProcess(long pid, Runnable exit) {
        this.pid = pid;
        this.exit = exit;
    }

    /** Exits the JVM (status 0) once {@code pid} has ended. */
    public static ExitWithProcess exitingTheJvm(long pid) {
        return new ExitWithProcess(pid, () -> System.exit(0));
    }

    @Override
    public void start() {
        Optional<ProcessHandle> served = ProcessHandle.of(pid).filter(this::startedBeforeUs);
        if (served.isEmpty()) {
            LOG.warn("The process {} this server serves (exitWith) is gone: stopping", pid);
            stopInItsOwnThread();
            return;
        }
        served.get()
                .onExit()
                .thenRun(
                        () -> {
                            LOG.warn("The process {} this server serves (exitWith) ended", pid);
                            stopInItsOwnThread();
                        });
    }

    /**
     * The process that started this server began before it: a process id of one that began later
     * was handed on by the system after the one this server serves had ended.
     */
    private boolean startedBeforeUs(ProcessHandle process) {
        Optional<Instant> theirs = process.info().startInstant();
        Optional<Instant> ours = ProcessHandle.current().info().startInstant();
        return theirs.isEmpty() || ours.isEmpty() || !theirs.get().isAfter(ours.get());
    }

    /** Not in Jetty's start-up, nor in the thread that saw the end: the exit waits for the stop. */
    private void stopInItsOwnThread() {
        Thread stopping = new Thread(exit, "exit-with-" + pid);
        stopping.setDaemon(false);
        stopping.start();
    }

    @Override
    public void stop() {}
}
