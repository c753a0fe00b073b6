package lab.responsetime.core.computation;

/** The work was stopped because nobody waits for it any more; the message says why. */
public final class CancelledException extends Exception {
    public CancelledException(String reason) {
        super(reason);
    }
}
