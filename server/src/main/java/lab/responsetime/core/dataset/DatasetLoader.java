package lab.responsetime.core.dataset;

import io.dropwizard.lifecycle.Managed;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes each dataset resident: loads its data file, or generates it and writes the file when the
 * file is missing, damaged or made for other settings. Both kinds load in parallel, in the
 * background, so the server answers (503 for data not yet loaded) while they load.
 */
public final class DatasetLoader implements Managed {
    private static final Logger LOG = LoggerFactory.getLogger(DatasetLoader.class);

    private final Datasets datasets;
    private final Path directory;
    private ExecutorService executor;

    public DatasetLoader(Datasets datasets, Path directory) {
        this.datasets = datasets;
        this.directory = directory;
    }

    @Override
    public void start() {
        executor =
                Executors.newFixedThreadPool(
                        ObjectKind.ALL.size(),
                        runnable -> {
                            Thread thread = new Thread(runnable, "dataset-loader");
                            thread.setDaemon(true);
                            return thread;
                        });
        for (ObjectKind<?> kind : ObjectKind.ALL) {
            executor.submit(() -> loadInto(datasets.get(kind)));
        }
        // The brought datasets before the server answers: a request for one never finds it
        // missing because it is still loading (each loads in seconds).
        try {
            datasets.brought().loadAll();
        } catch (IOException e) {
            LOG.error("Could not list the brought datasets", e);
        }
        executor.shutdown();
    }

    @Override
    public void stop() {
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    private <T> void loadInto(Dataset<T> dataset) {
        try {
            loadOrGenerate(dataset);
        } catch (IOException | RuntimeException | OutOfMemoryError e) {
            LOG.error("Could not make the {} dataset resident", dataset.kind(), e);
            dataset.failed("could not load or generate: " + e);
        }
    }

    /** Loads or generates one dataset synchronously; the generate command and tests use it too. */
    public <T> void loadOrGenerate(Dataset<T> dataset) throws IOException {
        ObjectKind<T> kind = dataset.kind();
        Path file = DataFile.path(directory, kind);
        dataset.loading("loading " + file);
        long started = System.nanoTime();
        try {
            List<T> objects = DataFile.read(file, kind, datasets.seed(), datasets.size());
            LOG.info(
                    "Loaded {} {} from {} in {} ms",
                    objects.size(),
                    kind,
                    file,
                    millisSince(started));
            dataset.ready(objects, "loaded from " + file);
            return;
        } catch (DataFile.DataFileException e) {
            LOG.warn("Cannot use the data file: {}. Regenerating it.", e.getMessage());
        }
        dataset.ready(generateAndWrite(kind, file), "generated into " + file);
    }

    /** Generates a kind's dataset and writes its data file, whatever is there now. */
    public <T> List<T> generateAndWrite(ObjectKind<T> kind) throws IOException {
        return generateAndWrite(kind, DataFile.path(directory, kind));
    }

    private <T> List<T> generateAndWrite(ObjectKind<T> kind, Path file) throws IOException {
        long started = System.nanoTime();
        List<T> objects = DatasetGenerator.generate(kind, datasets.seed(), datasets.size());
        LOG.info(
                "Generated {} {} (seed {}) in {} ms",
                objects.size(),
                kind,
                datasets.seed(),
                millisSince(started));
        started = System.nanoTime();
        DataFile.write(file, kind, datasets.seed(), objects);
        LOG.info("Wrote {} in {} ms", file, millisSince(started));
        return objects;
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
