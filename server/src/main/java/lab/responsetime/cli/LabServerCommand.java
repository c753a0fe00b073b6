package lab.responsetime.cli;

import io.dropwizard.core.Application;
import io.dropwizard.core.cli.Cli;
import io.dropwizard.core.cli.ServerCommand;
import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.core.setup.Environment;
import lab.responsetime.LabConfiguration;
import lab.responsetime.jetty.FreePorts;
import lab.responsetime.jetty.PortUnavailableException;
import net.sourceforge.argparse4j.inf.Namespace;

/**
 * {@code server}, Dropwizard's own command, that first makes sure every port it will listen on is
 * free: a port that is not stops the start with one line naming the setting to change (Jetty's own
 * failure is a stack trace).
 */
public final class LabServerCommand extends ServerCommand<LabConfiguration> {
    public LabServerCommand(Application<LabConfiguration> application) {
        super(application);
    }

    @Override
    protected void run(Environment environment, Namespace namespace, LabConfiguration configuration)
            throws Exception {
        if (configuration.getServerFactory() instanceof DefaultServerFactory server) {
            FreePorts.require(server);
        }
        super.run(environment, namespace, configuration);
    }

    @Override
    public void onError(Cli cli, Namespace namespace, Throwable e) {
        if (e instanceof PortUnavailableException) {
            cli.getStdErr().println(e.getMessage());
        } else {
            super.onError(cli, namespace, e);
        }
    }
}
