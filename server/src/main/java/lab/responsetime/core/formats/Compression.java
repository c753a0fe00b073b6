package lab.responsetime.core.formats;

/** SPEC §3: the per-request choice of compression, honoured whatever Accept-Encoding says. */
public enum Compression {
    NONE("none", "none"),
    GZIP("gzip", "GZIP");

    private final String parameter;
    private final String label;

    Compression(String parameter, String label) {
        this.parameter = parameter;
        this.label = label;
    }

    /** The name a reader sees in reports and on the page. */
    public String label() {
        return label;
    }

    /** The value of the {@code compression} query parameter, and of Content-Encoding for GZIP. */
    public String parameter() {
        return parameter;
    }
}
