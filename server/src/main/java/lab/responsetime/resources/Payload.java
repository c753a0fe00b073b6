package lab.responsetime.resources;

import java.util.List;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Compression;
import lab.responsetime.core.formats.Format;

/** The entity of a data answer, written by {@link PayloadWriter}. */
record Payload<T>(ObjectKind<T> kind, List<T> objects, Format format, Compression compression,
                  long queueNanos, long sortNanos) {
}
