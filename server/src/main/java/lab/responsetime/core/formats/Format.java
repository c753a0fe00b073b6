package lab.responsetime.core.formats;

/** The interchange formats of SPEC §2, by the name the {@code format} parameter uses. */
public enum Format {
    JSON("json", "application/json", new JsonEncoder()),
    XML("xml", "application/xml", new XmlEncoder()),
    PROTOBUF("protobuf", "application/x-protobuf", new ProtobufEncoder());

    private final String parameter;
    private final String mediaType;
    private final Encoder encoder;

    Format(String parameter, String mediaType, Encoder encoder) {
        this.parameter = parameter;
        this.mediaType = mediaType;
        this.encoder = encoder;
    }

    /** The value of the {@code format} query parameter. */
    public String parameter() {
        return parameter;
    }

    /** The {@code Content-Type} of an answer in this format. */
    public String mediaType() {
        return mediaType;
    }

    public Encoder encoder() {
        return encoder;
    }
}
