package lab.responsetime.api;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** A number-heavy object, like a listing on a video site (docs/method.md#datasets). */
@JsonPropertyOrder({"uri", "title", "format", "height", "width", "length", "views", "enabled"})
public record Video(
        String uri,
        String title,
        String format,
        int height,
        int width,
        int length,
        int views,
        boolean enabled) {}
