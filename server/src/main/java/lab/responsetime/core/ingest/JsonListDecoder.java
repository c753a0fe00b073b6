package lab.responsetime.core.ingest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import lab.responsetime.core.formats.Format;

/**
 * SPEC §2 JSON: a top-level array of objects, read by Jackson's streaming parser in its strict
 * default (no comments, no trailing commas, no NaN, no leading zeros). A price is checked as it is
 * written: digits and at most two decimals ({@code 12}, {@code 12.5}, {@code 12.34}), which is how
 * the server's encoder writes any price of SPEC §1.
 */
final class JsonListDecoder extends JacksonListDecoder {
    private static final JsonFactory FACTORY =
            JsonFactory.builder()
                    .streamReadConstraints(CONSTRAINTS)
                    .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
                    .build();

    JsonListDecoder() {
        super(FACTORY, Format.JSON);
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
