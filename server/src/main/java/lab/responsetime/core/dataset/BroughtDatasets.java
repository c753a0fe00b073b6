package lab.responsetime.core.dataset;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The datasets users brought (docs/datasets.md), by name: each kept in the data directory as {@code
 * datasets/<name>.jsonl}, its objects as JSON Lines exactly as read (the canonical form whose
 * SHA-256 is the dataset's content hash), and resident as rows of its inferred schema.
 *
 * <p>A dataset is written to a temporary file and renamed into place before it replaces the one
 * served, so a failed or refused upload leaves every dataset as it was and a half-written one is
 * never seen, on disk or over HTTP. Writes are serialized; reads never wait.
 */
public final class BroughtDatasets {
    private static final Logger LOG = LoggerFactory.getLogger(BroughtDatasets.class);

    /** A dataset's name: lowercase letters, digits and {@code -}, from a letter, ≤ 32 chars. */
    public static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,31}");

    /** The API's own words under {@code /api/}: no dataset may take them. */
    public static final Set<String> RESERVED =
            Set.of("books", "videos", "datasets", "info", "catalogue", "health", "api");

    /** The folder of the data directory they are kept in. */
    public static final String DIRECTORY = "datasets";

    private static final String SUFFIX = ".jsonl";

    private static final ObjectMapper CANONICAL =
            JsonMapper.builder().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET).build();

    /** One brought dataset. */
    public record Entry(
            ObjectKind<Object[]> kind, Dataset<Object[]> dataset, String sha256, long bytes) {
        public String name() {
            return kind.plural();
        }

        public int count() {
            return dataset.objects().orElseThrow().size();
        }
    }

    private final Path directory;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

    /**
     * @param directory where the datasets are kept ({@code <data>/datasets}); null keeps them in
     *     memory only (tests and tools)
     */
    public BroughtDatasets(Path directory) {
        this.directory = directory;
    }

    /** Why {@code name} cannot name a brought dataset, or empty when it can. */
    public static Optional<String> nameProblem(String name) {
        if (!NAME.matcher(name).matches()) {
            return Optional.of(
                    "a dataset name is lowercase letters, digits and \"-\", starting with a"
                            + " letter, at most 32 characters; got \""
                            + name
                            + "\"");
        }
        if (RESERVED.contains(name)) {
            return Optional.of(
                    "\""
                            + name
                            + "\" is one of the API's own names ("
                            + String.join(", ", RESERVED.stream().sorted().toList())
                            + ") and cannot name a dataset");
        }
        return Optional.empty();
    }

    public Optional<Entry> get(String name) {
        return Optional.ofNullable(entries.get(name));
    }

    /** Every brought dataset, by name. */
    public List<Entry> all() {
        List<Entry> all = new ArrayList<>(entries.values());
        all.sort(Comparator.comparing(Entry::name));
        return all;
    }

    /**
     * Reads, checks and keeps the dataset in {@code json}, replacing any of that name; nothing
     * changes when it is refused.
     *
     * @param repeatTo when positive, the objects repeated in order until there are this many
     *     (docs/datasets.md#repeating-a-small-dataset); 0 keeps them as they are
     * @param maxObjects the most objects a dataset may have, repeated or not
     * @throws DatasetRefusedException naming the first problem
     * @throws DatasetParser.TooLargeException when the body has more than {@code limitBytes}
     */
    public Entry put(String name, InputStream json, long limitBytes, int repeatTo, int maxObjects)
            throws IOException, DatasetRefusedException {
        Optional<String> problem = nameProblem(name);
        if (problem.isPresent()) {
            throw new DatasetRefusedException(problem.get());
        }
        List<Object> objects = DatasetParser.parse(json, limitBytes);
        if (repeatTo > 0 && !objects.isEmpty() && repeatTo != objects.size()) {
            List<Object> repeated = new ArrayList<>(repeatTo);
            for (int i = 0; i < repeatTo; i++) {
                repeated.add(objects.get(i % objects.size()));
            }
            objects = repeated;
        }
        if (objects.size() > maxObjects) {
            throw new DatasetRefusedException(
                    "the dataset has "
                            + objects.size()
                            + " objects; a dataset has at most "
                            + maxObjects
                            + " (dataset.size)");
        }
        SchemaInference.Inferred inferred = SchemaInference.infer(objects);
        byte[] canonical = canonical(objects);
        synchronized (this) {
            if (directory != null) {
                write(name, canonical);
            }
            Entry entry = entry(name, inferred, canonical);
            entries.put(name, entry);
            return entry;
        }
    }

    /** Removes a brought dataset; false when there is none of that name. */
    public synchronized boolean delete(String name) throws IOException {
        if (entries.remove(name) == null) {
            return false;
        }
        if (directory != null) {
            Files.deleteIfExists(directory.resolve(name + SUFFIX));
        }
        return true;
    }

    /**
     * Loads every dataset kept in the directory; a file that does not read or no longer passes the
     * checks is logged and left out, never served.
     */
    public void loadAll() throws IOException {
        if (directory == null || !Files.isDirectory(directory)) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
            for (Path file : files) {
                String fileName = file.getFileName().toString();
                String name = fileName.substring(0, fileName.length() - SUFFIX.length());
                if (nameProblem(name).isPresent()) {
                    continue;
                }
                long started = System.nanoTime();
                try (InputStream in = Files.newInputStream(file)) {
                    List<Object> objects = DatasetParser.parse(in, Long.MAX_VALUE);
                    SchemaInference.Inferred inferred = SchemaInference.infer(objects);
                    entries.put(name, entry(name, inferred, canonical(objects)));
                    LOG.info(
                            "Loaded the dataset {} ({} objects) from {} in {} ms",
                            name,
                            objects.size(),
                            file,
                            (System.nanoTime() - started) / 1_000_000);
                } catch (DatasetRefusedException | IOException e) {
                    LOG.error("Cannot load the dataset {} from {}: {}", name, file, e.getMessage());
                }
            }
        }
    }

    private static Entry entry(String name, SchemaInference.Inferred inferred, byte[] canonical) {
        ObjectKind<Object[]> kind = ObjectKind.brought(name, inferred.schema());
        Dataset<Object[]> dataset = new Dataset<>(kind);
        dataset.ready(inferred.rows(), "brought");
        return new Entry(kind, dataset, sha256(canonical), canonical.length);
    }

    /** The objects as JSON Lines: each as read (fields in their order, nulls kept), one a line. */
    private static byte[] canonical(List<Object> objects) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object object : objects) {
            CANONICAL.writeValue(out, object);
            out.write('\n');
        }
        return out.toByteArray();
    }

    private void write(String name, byte[] canonical) throws IOException {
        Files.createDirectories(directory);
        Path file = directory.resolve(name + SUFFIX);
        Path temporary =
                directory.resolve(name + SUFFIX + "." + ProcessHandle.current().pid() + ".tmp");
        try {
            Files.write(temporary, canonical);
            try (var channel =
                    java.nio.channels.FileChannel.open(
                            temporary, java.nio.file.StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            DataFile.moveIntoPlace(temporary, file);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
