package lab.responsetime.core.ingest;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import lab.responsetime.core.formats.Format;

/**
 * The formats a posted body may be in, by its {@code Content-Type}: each {@link Format}'s media
 * type. XML with elements and XML with attributes share {@code application/xml}: one decoder reads
 * both, deciding per document from its first object.
 */
public enum IngestFormat {
    JSON(Format.JSON, true, new JsonListDecoder()),
    PROTOBUF(Format.PROTOBUF, false, new ProtobufListDecoder()),
    /** SPEC §2's XML or XML with attributes (SPEC §9): the document's first object decides. */
    XML(Format.XML, true, new XmlListDecoder()),
    CBOR(Format.CBOR, false, new CborListDecoder()),
    MSGPACK(Format.MSGPACK, false, new MsgpackListDecoder());

    private static final String CHARSET = "charset";
    private static final String UTF_8 = "utf-8";

    private final Format format;
    private final boolean text;
    private final ListDecoder decoder;

    IngestFormat(Format format, boolean text, ListDecoder decoder) {
        this.format = format;
        this.text = text;
        this.decoder = decoder;
    }

    /** The {@code Content-Type} of a body in this format. */
    public String mediaType() {
        return format.mediaType();
    }

    ListDecoder decoder() {
        return decoder;
    }

    /**
     * The format a request's {@code Content-Type} names: a media type below (case-insensitive),
     * with, for the text formats JSON and XML, at most a {@code charset=utf-8} parameter. Empty for
     * any other value, and for none.
     */
    public static Optional<IngestFormat> forContentType(String header) {
        if (header == null) {
            return Optional.empty();
        }
        String[] parts = header.split(";", -1);
        String type = parts[0].trim().toLowerCase(Locale.ROOT);
        Optional<IngestFormat> match =
                Arrays.stream(values()).filter(f -> f.mediaType().equals(type)).findFirst();
        for (int i = 1; i < parts.length && match.isPresent(); i++) {
            String parameter = parts[i].trim();
            int equals = parameter.indexOf('=');
            String name = equals < 0 ? parameter : parameter.substring(0, equals).trim();
            String value = equals < 0 ? "" : unquote(parameter.substring(equals + 1).trim());
            if (!match.get().text
                    || !name.equalsIgnoreCase(CHARSET)
                    || !value.equalsIgnoreCase(UTF_8)) {
                return Optional.empty();
            }
        }
        return match;
    }

    private static String unquote(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1)
                : value;
    }

    /** The accepted media types, for an {@code Accept-Post} header. */
    public static String mediaTypes() {
        return Arrays.stream(values())
                .map(IngestFormat::mediaType)
                .collect(Collectors.joining(", "));
    }

    /** The accepted media types in words, for messages. */
    public static String described() {
        return Arrays.stream(values())
                        .map(
                                f ->
                                        f == XML
                                                ? f.mediaType()
                                                        + " (XML with elements or with attributes:"
                                                        + " the first object decides)"
                                                : f.mediaType())
                        .collect(Collectors.joining(", "))
                + "; JSON and XML may add \"; charset=utf-8\"";
    }
}
