package lab.responsetime.core.formats;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import com.fasterxml.jackson.dataformat.cbor.CBORParser;
import java.io.IOException;
import java.util.List;
import lab.responsetime.core.ingest.ObjectValidator;
import lab.responsetime.core.ingest.TextView;

/**
 * RFC 8949 CBOR (docs/method.md, related studies): an array of maps with text keys, one per object,
 * written by Jackson's {@link JacksonMappers#CBOR} and read by Jackson's CBOR parser. Values are
 * checked as carried: text strings, integers, true/false; a price is a float (half, single or
 * double) or an integer, which must be the float nearest to a number with at most two decimals.
 * Tagged values and byte strings are refused: the server's encoder writes neither.
 */
final class CborCodec extends JacksonCodec {
    private static final CBORFactory FACTORY =
            CBORFactory.builder()
                    .streamReadConstraints(CONSTRAINTS)
                    .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
                    .build();

    CborCodec() {
        super(JacksonMappers.CBOR, FACTORY);
    }

    @Override
    Format format() {
        return Format.CBOR;
    }

    @Override
    public List<Library> libraries() {
        return List.of(
                Library.fromPom(
                        "jackson_cbor",
                        "com.fasterxml.jackson.dataformat/jackson-dataformat-cbor"));
    }

    @Override
    void decimal(
            JsonParser parser, JsonToken token, int field, ObjectValidator validator, TextView text)
            throws IOException {
        if (token == JsonToken.VALUE_NUMBER_FLOAT) {
            validator.decimal(field, parser.getDoubleValue());
        } else if (token == JsonToken.VALUE_NUMBER_INT
                && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
            validator.decimal(field, parser.getLongValue());
        } else {
            throw validator.invalid(field, describe(parser, token));
        }
    }

    @Override
    boolean tagged(JsonParser parser) {
        return ((CBORParser) parser).getCurrentTag() >= 0;
    }

    @Override
    String describe(JsonParser parser, JsonToken token) throws IOException {
        if (token != null && tagged(parser)) {
            return "a value with CBOR tag " + ((CBORParser) parser).getCurrentTag();
        }
        return switch (token == null ? JsonToken.NOT_AVAILABLE : token) {
            case START_OBJECT -> "a map";
            case VALUE_EMBEDDED_OBJECT -> "a byte string";
            default -> super.describe(parser, token);
        };
    }

    @Override
    String anArray() {
        return "a CBOR array";
    }
}
