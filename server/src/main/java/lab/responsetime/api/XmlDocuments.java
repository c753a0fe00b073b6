package lab.responsetime.api;

import com.fasterxml.jackson.dataformat.xml.annotation.JacksonXmlElementWrapper;
import com.fasterxml.jackson.dataformat.xml.annotation.JacksonXmlProperty;
import com.fasterxml.jackson.dataformat.xml.annotation.JacksonXmlRootElement;
import java.util.List;

/**
 * The XML documents of docs/method.md#formats: a root {@code <books>} (or {@code <videos>}) with
 * one {@code <book>} ({@code <video>}) child per object, every field a child element.
 */
public final class XmlDocuments {
    private XmlDocuments() {}

    /** {@code <books><book>…</book>…</books>}. */
    @JacksonXmlRootElement(localName = "books")
    public record Books(
            @JacksonXmlElementWrapper(useWrapping = false) @JacksonXmlProperty(localName = "book")
                    List<Book> books) {}

    /** {@code <videos><video>…</video>…</videos>}. */
    @JacksonXmlRootElement(localName = "videos")
    public record Videos(
            @JacksonXmlElementWrapper(useWrapping = false) @JacksonXmlProperty(localName = "video")
                    List<Video> videos) {}
}
