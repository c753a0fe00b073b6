package lab.responsetime.core.compression;

import java.util.ArrayList;
import java.util.List;

/**
 * The compressions and levels the parameterized suites run: none, and every other compression at
 * its lowest, default and highest level.
 */
public final class CompressionLevels {
    private CompressionLevels() {}

    /** A compression at a level (0 for none). */
    public record Case(Compression compression, int level) {
        public boolean isDefault() {
            return compression.levels().map(l -> l.defaultLevel() == level).orElse(true);
        }

        public boolean isHeavy() {
            return compression.isHeavy(level);
        }

        @Override
        public String toString() {
            return compression == Compression.NONE ? "none" : compression.parameter() + "/" + level;
        }
    }

    public static List<Case> all() {
        List<Case> cases = new ArrayList<>();
        for (Compression compression : Compression.values()) {
            compression
                    .levels()
                    .ifPresentOrElse(
                            levels -> {
                                cases.add(new Case(compression, levels.min()));
                                cases.add(new Case(compression, levels.defaultLevel()));
                                cases.add(new Case(compression, levels.max()));
                            },
                            () -> cases.add(new Case(compression, 0)));
        }
        return cases;
    }
}
