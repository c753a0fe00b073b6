package lab.responsetime.resources;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Format;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The bodies the server can answer: every kind × format × compression at the given counts, as test
 * arguments.
 */
final class EveryBody {
    private EveryBody() {}

    static Stream<Arguments> atCounts(int... counts) {
        List<Arguments> cells = new ArrayList<>();
        for (ObjectKind<?> kind : ObjectKind.ALL) {
            for (Format format : Format.values()) {
                for (Compression compression : Compression.values()) {
                    for (int count : counts) {
                        cells.add(Arguments.of(kind, format, compression, count));
                    }
                }
            }
        }
        return cells.stream();
    }
}
