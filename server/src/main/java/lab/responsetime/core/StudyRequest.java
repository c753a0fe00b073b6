package lab.responsetime.core;

import lab.responsetime.core.computation.ComputationModel;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Compression;
import lab.responsetime.core.formats.Format;

/** One request for data: the first {@code count} objects of a kind, sorted by {@code cm}, encoded. */
public record StudyRequest<T>(ObjectKind<T> kind, int count, Format format, Compression compression,
                              ComputationModel cm) {
    public static final int DEFAULT_COUNT = 10;
}
