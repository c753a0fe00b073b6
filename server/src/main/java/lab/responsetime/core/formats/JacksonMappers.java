package lab.responsetime.core.formats;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.xml.XmlMapper;

/**
 * The Jackson mappers the JSON and XML encoders use. Floats are written with the shortest
 * decimal that reads back as the same float (so a price of 12.34 is written {@code 12.34}).
 * The benchmark uses the same mappers for its raw-library baseline.
 */
public final class JacksonMappers {
    public static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .build();

    public static final XmlMapper XML = XmlMapper.builder()
            .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .build();

    private JacksonMappers() {
    }
}
