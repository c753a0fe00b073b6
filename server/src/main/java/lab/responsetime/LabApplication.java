package lab.responsetime;

import io.dropwizard.core.Application;
import io.dropwizard.core.cli.CheckCommand;
import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import lab.responsetime.cli.GenerateCommand;
import lab.responsetime.cli.LabServerCommand;
import lab.responsetime.core.StudyService;
import lab.responsetime.core.computation.ComputationLimiter;
import lab.responsetime.core.computation.WorkBudget;
import lab.responsetime.core.dataset.BroughtDatasets;
import lab.responsetime.core.dataset.DatasetLoader;
import lab.responsetime.core.dataset.Datasets;
import lab.responsetime.core.formats.BodyWriter;
import lab.responsetime.core.ingest.Ingestion;
import lab.responsetime.health.DatasetsHealthCheck;
import lab.responsetime.jetty.ClientPresenceFilter;
import lab.responsetime.jetty.ConnectionWatcher;
import lab.responsetime.jetty.IdleConnectionsCloseOnStop;
import lab.responsetime.jetty.ServedProtocols;
import lab.responsetime.jetty.StopComputationsOnShutdown;
import lab.responsetime.jetty.TlsConnectors;
import lab.responsetime.lifecycle.ExitWithProcess;
import lab.responsetime.lifecycle.ServerProcess;
import lab.responsetime.resources.CancelledMapper;
import lab.responsetime.resources.CatalogueResource;
import lab.responsetime.resources.ClientFilesServlet;
import lab.responsetime.resources.DatasetsResource;
import lab.responsetime.resources.HttpPolicyFilter;
import lab.responsetime.resources.InfoResource;
import lab.responsetime.resources.IngestRefusedMapper;
import lab.responsetime.resources.IngestResource;
import lab.responsetime.resources.InvalidParametersMapper;
import lab.responsetime.resources.JsonErrorHandler;
import lab.responsetime.resources.NotFoundMapper;
import lab.responsetime.resources.ObjectsResource;
import lab.responsetime.resources.PayloadWriter;
import lab.responsetime.resources.RetryLaterMapper;
import lab.responsetime.resources.UnreadBodyFilter;
import lab.responsetime.resources.WorkTooLargeMapper;
import org.glassfish.jersey.media.multipart.MultiPartFeature;
import org.glassfish.jersey.server.ServerProperties;

/**
 * The study server: datasets, formats, compression and computation models over HTTP, and the
 * collector that reads posted lists back.
 */
public class LabApplication extends Application<LabConfiguration> {
    /** Runs {@code server} with the embedded defaults when no command is given. */
    public static void main(String[] args) throws Exception {
        new LabApplication().run(args.length == 0 ? new String[] {"server"} : args);
    }

    @Override
    public String getName() {
        return "response-time-lab";
    }

    /** Dropwizard's commands, its {@code server} checking first that its ports are free. */
    @Override
    protected void addDefaultCommands(Bootstrap<LabConfiguration> bootstrap) {
        bootstrap.addCommand(new LabServerCommand(this));
        bootstrap.addCommand(new CheckCommand<>(this));
    }

    @Override
    public void initialize(Bootstrap<LabConfiguration> bootstrap) {
        bootstrap.addCommand(new GenerateCommand());
    }

    @Override
    public void run(LabConfiguration configuration, Environment environment) {
        LabConfiguration.DatasetSettings dataset = configuration.getDataset();
        LabConfiguration.ComputationSettings computation = configuration.getComputation();
        LabConfiguration.ResponseSettings response = configuration.getResponse();

        BroughtDatasets brought =
                new BroughtDatasets(dataset.directoryPath().resolve(BroughtDatasets.DIRECTORY));
        Datasets datasets = Datasets.loading(dataset.getSeed(), dataset.getSize(), brought);
        environment
                .lifecycle()
                .manage(new DatasetLoader(datasets, dataset.directoryPath(), dataset.bringPaths()));
        ComputationLimiter limiter =
                new ComputationLimiter(
                        computation.getMaxConcurrent(),
                        computation.getMaxQueued(),
                        computation.getMaxQueueWait().toJavaDuration());

        environment.lifecycle().addEventListener(new StopComputationsOnShutdown(limiter));
        ConnectionWatcher connectionWatcher = new ConnectionWatcher();
        environment.lifecycle().manage(connectionWatcher);

        environment.metrics().registerGauge("computations.running", limiter::running);
        environment.metrics().registerGauge("computations.admitted", limiter::admitted);
        environment.metrics().registerGauge("computations.workPerSecond", limiter::workPerSecond);
        Ingestion ingestion = new Ingestion(configuration.getIngest().limits());
        environment.metrics().registerGauge("ingest.running", ingestion::running);

        environment.jersey().setUrlPattern("/api/*");
        // BodyWriter holds back the head of each body itself; Jersey's own buffer would hide that.
        environment.jersey().property(ServerProperties.OUTBOUND_CONTENT_LENGTH_BUFFER, 0);
        environment
                .jersey()
                .register(
                        new ObjectsResource(
                                new StudyService(
                                        datasets,
                                        limiter,
                                        new WorkBudget(computation.getMaxSortWork()))));
        environment.jersey().register(new PayloadWriter(new BodyWriter(response.getHeadBytes())));
        environment.jersey().register(new IngestResource(ingestion, datasets));
        environment.jersey().register(new IngestRefusedMapper());
        ServedProtocols protocols =
                new ServedProtocols(
                        configuration.getServerFactory() instanceof DefaultServerFactory server
                                ? TlsConnectors.addTo(server, configuration.getTls())
                                : "no TLS connectors: the server factory is not the default one");
        environment.lifecycle().addServerLifecycleListener(protocols);
        environment.lifecycle().addServerLifecycleListener(new IdleConnectionsCloseOnStop());
        environment
                .jersey()
                .register(
                        new InfoResource(
                                datasets,
                                configuration,
                                protocols,
                                ServerProcess.current(configuration.getExitWith())));
        if (configuration.getExitWith() != null) {
            environment
                    .lifecycle()
                    .manage(ExitWithProcess.exitingTheJvm(configuration.getExitWith()));
        }
        environment.jersey().register(new CatalogueResource());
        environment
                .jersey()
                .register(
                        new DatasetsResource(
                                brought, dataset.getMaxUploadBytes(), dataset.getSize()));
        environment.jersey().register(MultiPartFeature.class);
        environment.jersey().register(new NotFoundMapper());
        environment.jersey().register(new UnreadBodyFilter());
        environment.jersey().register(new InvalidParametersMapper());
        environment.jersey().register(new WorkTooLargeMapper());
        environment.jersey().register(new RetryLaterMapper());
        environment.jersey().register(new CancelledMapper());
        environment.jersey().register(new CancelledMapper.WhileWriting());
        environment
                .servlets()
                .addFilter("http-policy", new HttpPolicyFilter())
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
        environment
                .servlets()
                .addFilter("client-presence", new ClientPresenceFilter(connectionWatcher))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/api/*");
        environment
                .servlets()
                .addServlet(
                        "client", new ClientFilesServlet(configuration.getClient().directoryPath()))
                .addMapping("/");
        environment
                .lifecycle()
                .addServerLifecycleListener(
                        server -> server.setErrorHandler(new JsonErrorHandler()));
        environment.healthChecks().register("datasets", new DatasetsHealthCheck(datasets));
    }
}
