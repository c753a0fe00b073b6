package lab.responsetime.resources;

import java.io.IOException;
import lab.responsetime.core.computation.CancelledException;

/**
 * A body whose work was stopped while it was being written (a heavy compression whose client left,
 * or a server shutting down). An IOException, as a body writer may throw; {@link
 * CancelledMapper.WhileWriting} answers it like any cancelled work when nothing of the body had
 * left yet.
 */
final class BodyCancelledException extends IOException {
    BodyCancelledException(CancelledException cause) {
        super(cause.getMessage(), cause);
    }
}
