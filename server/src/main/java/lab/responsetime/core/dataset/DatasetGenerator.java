package lab.responsetime.core.dataset;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import lab.responsetime.api.Book;
import lab.responsetime.api.Video;

/**
 * Generates the datasets of docs/method.md#datasets from a seeded {@link java.util.Random}.
 *
 * <p>Books draw from {@code new Random(seed)} and Videos from {@code new Random(seed + 1)} (the
 * kind's {@link ObjectKind#seedOffset()}), so the two types are independent streams. Within an
 * object each field's {@link FieldRule} draws its value in the order of the kind's field table (the
 * order of the method's tables (docs/method.md#datasets)), one object after another; a paired field
 * (Video's width) draws nothing and takes its partner's pair. Object {@code i} therefore depends
 * only on the seed and {@code i}: the first N objects of a dataset of any size are the same, which
 * lets small test datasets stand for the large one.
 *
 * <p>Bump {@link #VERSION} whenever a rule or the order of draws changes; data files made by
 * another version are regenerated.
 */
public final class DatasetGenerator {
    /** Version of the generation rules; part of every data file's header. */
    public static final int VERSION = 1;

    private DatasetGenerator() {}

    /** The first {@code size} objects of {@code kind} for {@code seed}. */
    public static <T> List<T> generate(ObjectKind<T> kind, long seed, int size) {
        Random random = new Random(seed + kind.seedOffset());
        List<Field> fields = kind.fields();
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < fields.size(); i++) {
            positions.put(fields.get(i).name(), i);
        }
        List<T> objects = new ArrayList<>(size);
        for (int n = 0; n < size; n++) {
            Object[] values = new Object[fields.size()];
            Function<String, Object> drawn = name -> values[positions.get(name)];
            for (int i = 0; i < values.length; i++) {
                values[i] = fields.get(i).rule().draw(random, drawn);
            }
            objects.add(kind.fromValues(values));
        }
        return objects;
    }

    public static List<Book> books(long seed, int size) {
        return generate(ObjectKind.BOOKS, seed, size);
    }

    public static List<Video> videos(long seed, int size) {
        return generate(ObjectKind.VIDEOS, seed, size);
    }
}
