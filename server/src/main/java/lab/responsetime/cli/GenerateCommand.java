package lab.responsetime.cli;

import io.dropwizard.core.cli.ConfiguredCommand;
import io.dropwizard.core.setup.Bootstrap;
import lab.responsetime.LabConfiguration;
import lab.responsetime.core.dataset.Dataset;
import lab.responsetime.core.dataset.DatasetLoader;
import lab.responsetime.core.dataset.Datasets;
import lab.responsetime.core.dataset.ObjectKind;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/**
 * {@code generate [--force] [config.yml]}: makes the data files ahead of the first start. Valid
 * files are kept (after a full check) unless {@code --force} is given.
 */
public final class GenerateCommand extends ConfiguredCommand<LabConfiguration> {
    public GenerateCommand() {
        super(
                "generate",
                "Generates both datasets and writes their data files (keeps valid files unless"
                        + " --force)");
    }

    @Override
    public void configure(Subparser subparser) {
        super.configure(subparser);
        subparser
                .addArgument("--force")
                .action(net.sourceforge.argparse4j.impl.Arguments.storeTrue())
                .help("regenerate even when the data files are valid");
    }

    @Override
    protected void run(
            Bootstrap<LabConfiguration> bootstrap,
            Namespace namespace,
            LabConfiguration configuration)
            throws Exception {
        LabConfiguration.DatasetSettings settings = configuration.getDataset();
        Datasets datasets = Datasets.loading(settings.getSeed(), settings.getSize());
        DatasetLoader loader = new DatasetLoader(datasets, settings.directoryPath());
        for (ObjectKind<?> kind : ObjectKind.ALL) {
            if (namespace.getBoolean("force")) {
                loader.generateAndWrite(kind);
            } else {
                loader.loadOrGenerate(datasets.get(kind));
            }
        }
        for (ObjectKind<?> kind : ObjectKind.ALL) {
            Dataset<?> dataset = datasets.get(kind);
            System.out.println(
                    kind
                            + ": "
                            + (dataset.state() == Dataset.State.READY
                                    ? dataset.status()
                                    : "written"));
        }
    }
}
