package lab.responsetime.core.formats;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import java.util.List;
import lab.responsetime.core.ingest.ObjectValidator;
import lab.responsetime.core.ingest.TextView;

/**
 * docs/method.md#formats JSON: a top-level array of objects, written by Jackson's {@link
 * JacksonMappers#JSON} and read by Jackson's streaming parser in its strict default (no comments,
 * no trailing commas, no NaN, no leading zeros). A price is checked as it is written: digits and at
 * most two decimals ({@code 12}, {@code 12.5}, {@code 12.34}), which is how the encoder writes any
 * price of docs/method.md#datasets.
 */
final class JsonCodec extends JacksonCodec {
    private static final JsonFactory FACTORY =
            JsonFactory.builder()
                    .streamReadConstraints(CONSTRAINTS)
                    .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
                    .build();

    JsonCodec() {
        super(JacksonMappers.JSON, FACTORY);
    }

    @Override
    Format format() {
        return Format.JSON;
    }

    @Override
    public List<Library> libraries() {
        return List.of(Library.fromPom("jackson", "com.fasterxml.jackson.core/jackson-databind"));
    }

    @Override
    public boolean text() {
        return true;
    }

    @Override
    void decimal(
            JsonParser parser, JsonToken token, int field, ObjectValidator validator, TextView text)
            throws IOException {
        if (token != JsonToken.VALUE_NUMBER_INT && token != JsonToken.VALUE_NUMBER_FLOAT) {
            throw validator.invalid(field, describe(parser, token));
        }
        validator.decimalLiteral(field, text(parser, text));
    }

    @Override
    String anArray() {
        return "a JSON array";
    }
}
