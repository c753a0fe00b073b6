package lab.responsetime.jetty;

/**
 * A port the server should listen on cannot be had (another process has it, or a setting would put
 * it past 65535). Its message is one line that names the setting to change; the server command
 * prints it alone, without a stack trace, and the start stops.
 */
public final class PortUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PortUnavailableException(String message) {
        super(message);
    }
}
