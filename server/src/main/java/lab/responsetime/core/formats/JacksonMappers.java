package lab.responsetime.core.formats;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import com.fasterxml.jackson.dataformat.xml.XmlMapper;
import com.fasterxml.jackson.dataformat.xml.annotation.JacksonXmlProperty;
import lab.responsetime.api.Book;
import lab.responsetime.api.Video;
import org.msgpack.jackson.dataformat.MessagePackMapper;

/**
 * The Jackson mappers the JSON, XML, CBOR and MessagePack encoders use. Text formats write floats
 * with the shortest decimal that reads back as the same float (so a price of 12.34 is written
 * {@code 12.34}); the binary ones write them as 32-bit floats. None closes the stream it writes to.
 * The benchmark uses the same mappers for its raw-library baseline.
 */
public final class JacksonMappers {
    public static final ObjectMapper JSON =
            JsonMapper.builder()
                    .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
                    .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
                    .build();

    /** docs/method.md#formats's XML: every field a child element. */
    public static final XmlMapper XML =
            XmlMapper.builder()
                    .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
                    .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
                    .build();

    /**
     * XML with attributes: {@code <book title="…" author="…" …/>}, the same documents otherwise.
     */
    public static final XmlMapper XML_ATTRIBUTES =
            XmlMapper.builder()
                    .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
                    .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
                    .addMixIn(Book.class, BookAttributes.class)
                    .addMixIn(Video.class, VideoAttributes.class)
                    .build();

    /** RFC 8949 CBOR: an array of maps, integers in their shortest form, floats as float32. */
    public static final ObjectMapper CBOR =
            CBORMapper.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();

    /** MessagePack: an array of maps, integers in their shortest form, floats as float32. */
    public static final ObjectMapper MSGPACK =
            new MessagePackMapper().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

    private JacksonMappers() {}

    /** Every Book field as an attribute of its {@code <book>} element. */
    private abstract static class BookAttributes {
        @JacksonXmlProperty(isAttribute = true)
        abstract String title();

        @JacksonXmlProperty(isAttribute = true)
        abstract String author();

        @JacksonXmlProperty(isAttribute = true)
        abstract String description();

        @JacksonXmlProperty(isAttribute = true)
        abstract String image();

        @JacksonXmlProperty(isAttribute = true)
        abstract int numInStock();

        @JacksonXmlProperty(isAttribute = true)
        abstract float price();

        @JacksonXmlProperty(isAttribute = true)
        abstract String type();

        @JacksonXmlProperty(isAttribute = true)
        abstract boolean onSale();
    }

    /** Every Video field as an attribute of its {@code <video>} element. */
    private abstract static class VideoAttributes {
        @JacksonXmlProperty(isAttribute = true)
        abstract String uri();

        @JacksonXmlProperty(isAttribute = true)
        abstract String title();

        @JacksonXmlProperty(isAttribute = true)
        abstract String format();

        @JacksonXmlProperty(isAttribute = true)
        abstract int height();

        @JacksonXmlProperty(isAttribute = true)
        abstract int width();

        @JacksonXmlProperty(isAttribute = true)
        abstract int length();

        @JacksonXmlProperty(isAttribute = true)
        abstract int views();

        @JacksonXmlProperty(isAttribute = true)
        abstract boolean enabled();
    }
}
