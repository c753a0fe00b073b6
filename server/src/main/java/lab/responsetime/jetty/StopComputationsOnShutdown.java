package lab.responsetime.jetty;

import lab.responsetime.core.computation.ComputationLimiter;
import org.eclipse.jetty.util.component.LifeCycle;

/**
 * When the server begins to stop (SIGTERM, say), cancels every waiting and running computation, so
 * that Jetty's graceful shutdown does not wait minutes for sorting nobody will receive: those
 * requests answer 503 at once and the server exits.
 */
public final class StopComputationsOnShutdown implements LifeCycle.Listener {
    static final String REASON = "the server is shutting down; retry once it is back";

    private final ComputationLimiter limiter;

    public StopComputationsOnShutdown(ComputationLimiter limiter) {
        this.limiter = limiter;
    }

    @Override
    public void lifeCycleStopping(LifeCycle event) {
        limiter.shutDown(REASON);
    }
}
