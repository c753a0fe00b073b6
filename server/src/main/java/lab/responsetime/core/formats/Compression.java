package lab.responsetime.core.formats;

/** SPEC §3: the per-request choice of compression, honoured whatever Accept-Encoding says. */
public enum Compression {
    NONE("none"),
    GZIP("gzip");

    private final String parameter;

    Compression(String parameter) {
        this.parameter = parameter;
    }

    /** The value of the {@code compression} query parameter, and of Content-Encoding for GZIP. */
    public String parameter() {
        return parameter;
    }
}
