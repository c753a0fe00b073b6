package lab.responsetime.core.dataset;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a brought dataset's JSON (docs/datasets.md#bringing-a-dataset): a JSON array of objects, or
 * JSON Lines (one object after another, each usually on its own line). Jackson reads it strictly:
 * no comments, no NaN, no duplicate field names in an object. What it reads is plain Java values
 * (maps, lists, strings, numbers, booleans, null) for {@link SchemaInference}.
 */
public final class DatasetParser {
    /** Depth Jackson reads, beyond which a body is refused before the schema's own limit. */
    private static final int MAX_NESTING = 64;

    /** Characters of one string value. */
    private static final int MAX_STRING_CHARS = 1 << 20;

    private static final JsonFactory FACTORY =
            JsonFactory.builder()
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
                    .streamReadConstraints(
                            StreamReadConstraints.builder()
                                    .maxNestingDepth(MAX_NESTING)
                                    .maxStringLength(MAX_STRING_CHARS)
                                    .maxNumberLength(64)
                                    .build())
                    .build();

    private static final ObjectMapper MAPPER = JsonMapper.builder(FACTORY).build();

    private DatasetParser() {}

    /** Thrown by the stream when the body passes its limit. */
    public static final class TooLargeException extends IOException {
        TooLargeException(long limitBytes) {
            super("the dataset is larger than the limit of " + limitBytes + " bytes");
        }
    }

    /**
     * The objects of {@code in}, read up to {@code limitBytes} bytes.
     *
     * @throws DatasetRefusedException when it is not a JSON array or JSON Lines
     * @throws TooLargeException when it has more than {@code limitBytes} bytes
     */
    public static List<Object> parse(InputStream in, long limitBytes)
            throws IOException, DatasetRefusedException {
        List<Object> objects = new ArrayList<>();
        try (JsonParser parser = FACTORY.createParser(new Limited(in, limitBytes))) {
            JsonToken token = parser.nextToken();
            if (token == null) {
                throw new DatasetRefusedException(
                        "the body is empty; send a JSON array of objects or JSON Lines");
            }
            boolean array = token == JsonToken.START_ARRAY;
            if (!array && token != JsonToken.START_OBJECT) {
                throw new DatasetRefusedException(
                        "the body must be a JSON array of objects or JSON Lines (one object per"
                                + " line), got "
                                + parser.getText());
            }
            if (array) {
                token = parser.nextToken();
            }
            while (token != null && !(array && token == JsonToken.END_ARRAY)) {
                if (!array && token != JsonToken.START_OBJECT) {
                    throw new DatasetRefusedException(
                            "line "
                                    + parser.currentLocation().getLineNr()
                                    + " of the JSON Lines is not an object: "
                                    + parser.getText(),
                            objects.size(),
                            null);
                }
                objects.add(MAPPER.readValue(parser, Object.class));
                token = parser.nextToken();
            }
            if (array) {
                if (token == null) {
                    throw new DatasetRefusedException("not JSON: the body ends inside the array");
                }
                if (parser.nextToken() != null) {
                    throw new DatasetRefusedException(
                            "not JSON: there is more after the end of the array");
                }
            }
        } catch (TooLargeException e) {
            throw e;
        } catch (JsonProcessingException e) {
            throw new DatasetRefusedException(
                    "not JSON: "
                            + e.getOriginalMessage()
                            + " at line "
                            + e.getLocation().getLineNr()
                            + ", column "
                            + e.getLocation().getColumnNr(),
                    objects.size(),
                    null);
        }
        return objects;
    }

    /** Refuses to read past its limit. */
    private static final class Limited extends FilterInputStream {
        private final long limitBytes;
        private long read;

        Limited(InputStream in, long limitBytes) {
            super(in);
            this.limitBytes = limitBytes;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws TooLargeException {
            read += n;
            if (read > limitBytes) {
                throw new TooLargeException(limitBytes);
            }
        }
    }
}
