package lab.responsetime.core.formats;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.ingest.ObjectValidator;
import lab.responsetime.core.ingest.TextView;
import lab.responsetime.core.ingest.Texts;

/**
 * What JSON and CBOR share: Jackson writes the list ({@link JacksonMappers}), and Jackson's
 * streaming parser reads it back token by token, an array of objects, each field's value checked as
 * its token arrives. A value of the wrong kind (a string where a number belongs, a fraction for an
 * integer, a number for a boolean, null, an object or array) is refused at its token, so nothing
 * nested is ever read.
 */
abstract class JacksonCodec implements FormatCodec {
    /**
     * What the parser may buffer, far above any valid value (the longest is 400 characters), so
     * that a huge string, name or number fails as soon as it passes these rather than at the body's
     * limit.
     */
    static final StreamReadConstraints CONSTRAINTS =
            StreamReadConstraints.builder()
                    .maxStringLength(16 * 1024)
                    .maxNameLength(1024)
                    .maxNumberLength(64)
                    .maxNestingDepth(16)
                    .build();

    private final ObjectMapper mapper;
    private final JsonFactory factory;

    JacksonCodec(ObjectMapper mapper, JsonFactory factory) {
        this.mapper = mapper;
        this.factory = factory;
    }

    /** The format this codec reads and writes. */
    abstract Format format();

    @Override
    public <T> void encode(ObjectKind<T> kind, List<T> objects, OutputStream out)
            throws IOException {
        if (kind.schema().isPresent()) {
            SchemaWriter.writeList(
                    mapper.getFactory().createGenerator(out),
                    kind.schema().get(),
                    SchemaWriter.rows(objects));
            return;
        }
        mapper.writeValue(out, objects);
    }

    @Override
    public Format decode(InputStream in, ObjectValidator validator) throws IOException {
        Format format = format();
        TextView text = new TextView();
        try (JsonParser parser = factory.createParser(in)) {
            JsonToken token = parser.nextToken();
            if (token != JsonToken.START_ARRAY || tagged(parser)) {
                throw validator.listProblem(
                        "the body must be "
                                + anArray()
                                + " of "
                                + validator.kind().plural()
                                + ", got "
                                + describe(parser, token));
            }
            while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
                if (token != JsonToken.START_OBJECT || tagged(parser)) {
                    throw token == null
                            ? validator.malformed(format.label(), "the body ends inside the list")
                            : validator.notAnObject(describe(parser, token));
                }
                validator.startObject();
                while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                    int field = validator.field(parser.currentName());
                    value(parser, parser.nextToken(), field, validator, text);
                }
                if (token != JsonToken.END_OBJECT) {
                    throw validator.malformed(format.label(), "the body ends inside an object");
                }
                validator.endObject();
            }
            if (validator.count() == 0) {
                throw validator.emptyList();
            }
            try {
                if (parser.nextToken() != null) {
                    throw validator.listProblem("there is more after the end of the list");
                }
            } catch (JsonProcessingException e) {
                throw validator.listProblem(
                        "there is more after the end of the list: " + detail(e));
            }
            return format;
        } catch (JsonProcessingException e) {
            throw validator.malformed(format.label(), detail(e));
        }
    }

    private void value(
            JsonParser parser, JsonToken token, int field, ObjectValidator validator, TextView text)
            throws IOException {
        if (tagged(parser)) {
            throw validator.invalid(field, describe(parser, token));
        }
        switch (validator.type(field)) {
            case STRING -> {
                if (token != JsonToken.VALUE_STRING) {
                    throw validator.invalid(field, describe(parser, token));
                }
                validator.string(field, text(parser, text));
            }
            case INTEGER -> {
                if (token != JsonToken.VALUE_NUMBER_INT) {
                    throw validator.invalid(field, describe(parser, token));
                }
                if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                    throw validator.invalid(field, parser.getText());
                }
                validator.integer(field, parser.getLongValue());
            }
            case DECIMAL -> decimal(parser, token, field, validator, text);
            case BOOLEAN -> {
                if (token != JsonToken.VALUE_TRUE && token != JsonToken.VALUE_FALSE) {
                    throw validator.invalid(field, describe(parser, token));
                }
                validator.bool(field, token == JsonToken.VALUE_TRUE);
            }
        }
    }

    /** Checks a DECIMAL field's value: as written (JSON) or as the number carried (CBOR). */
    abstract void decimal(
            JsonParser parser, JsonToken token, int field, ObjectValidator validator, TextView text)
            throws IOException;

    /**
     * Whether the current value carries something the format's encoder never writes (a CBOR tag).
     */
    boolean tagged(JsonParser parser) {
        return false;
    }

    /** The format's top-level list in words: {@code a JSON array}. */
    abstract String anArray();

    /** The current token's text, without copying it. */
    static TextView text(JsonParser parser, TextView text) throws IOException {
        return text.chars(
                parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
    }

    /** What a token is, for messages: the value itself for strings, numbers and literals. */
    String describe(JsonParser parser, JsonToken token) throws IOException {
        if (token == null) {
            return "the end of the body";
        }
        return switch (token) {
            case VALUE_STRING -> Texts.quote(text(parser, new TextView()));
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> parser.getText();
            case VALUE_TRUE -> "true";
            case VALUE_FALSE -> "false";
            case VALUE_NULL -> "null";
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_EMBEDDED_OBJECT -> "binary data";
            default -> token.asString() == null ? token.name() : token.asString();
        };
    }

    /** The parser's message and where in the body it stopped, without the body's content. */
    private static String detail(JsonProcessingException e) {
        JsonLocation location = e.getLocation();
        String at =
                location == null
                        ? ""
                        : location.getLineNr() > 0
                                ? " at line "
                                        + location.getLineNr()
                                        + ", column "
                                        + location.getColumnNr()
                                : location.getByteOffset() >= 0
                                        ? " at byte " + location.getByteOffset()
                                        : "";
        return e.getOriginalMessage() + at;
    }
}
