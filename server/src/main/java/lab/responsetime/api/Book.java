package lab.responsetime.api;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A text-heavy object, like a listing in an online book store (docs/method.md#datasets).
 *
 * <p>Field names and order are the method's (docs/method.md); every format writes them exactly so.
 * {@code price} is a {@code float} holding a value with at most two decimals.
 */
@JsonPropertyOrder({
    "title",
    "author",
    "description",
    "image",
    "numInStock",
    "price",
    "type",
    "onSale"
})
public record Book(
        String title,
        String author,
        String description,
        String image,
        int numInStock,
        float price,
        String type,
        boolean onSale) {}
