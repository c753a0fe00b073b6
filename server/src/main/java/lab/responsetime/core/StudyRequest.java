package lab.responsetime.core;

import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.computation.ComputationModel;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Format;

/**
 * One request for data: the first {@code count} objects of a kind, sorted by {@code cm}, encoded in
 * {@code format} and compressed at {@code level} (the compression's default when the request names
 * none; 0 for compression none, which has no levels).
 */
public record StudyRequest<T>(
        ObjectKind<T> kind,
        int count,
        Format format,
        Compression compression,
        int level,
        ComputationModel cm) {
    public static final int DEFAULT_COUNT = 10;

    /** Whether the answer is compressed at one of its compression's heavy levels. */
    public boolean heavyCompression() {
        return compression.isHeavy(level);
    }

    /** Whether the request takes a computation slot: it sorts, or compresses at a heavy level. */
    public boolean needsSlot() {
        return cm != ComputationModel.CM0 || heavyCompression();
    }
}
