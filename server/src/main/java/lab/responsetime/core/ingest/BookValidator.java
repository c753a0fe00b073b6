package lab.responsetime.core.ingest;

import java.util.List;
import lab.responsetime.core.dataset.DatasetGenerator;
import lab.responsetime.core.dataset.ObjectKind;

/**
 * SPEC §1's Book: title 10–30, author 10–20 and description 100–400 characters from 0-9, A-Z, a-z;
 * image a version-4 UUID as {@code UUID.toString()} writes it (lowercase) + {@code .png};
 * numInStock 0–1000; price 0–2000 with at most 2 decimals; type one of DIGITAL, HARDCOVER,
 * PAPERBACK; onSale a boolean.
 */
final class BookValidator extends ObjectValidator {
    static final List<String> FIELDS =
            List.of(
                    "title",
                    "author",
                    "description",
                    "image",
                    "numInStock",
                    "price",
                    "type",
                    "onSale");
    private static final int TITLE = 0;
    private static final int AUTHOR = 1;
    private static final int DESCRIPTION = 2;
    private static final int IMAGE = 3;
    private static final int NUM_IN_STOCK = 4;
    private static final int PRICE = 5;
    private static final int TYPE = 6;
    private static final int ON_SALE = 7;

    private static final int MAX_IN_STOCK = 1000;
    private static final long MAX_PRICE_CENTS = 200_000;
    private static final String IMAGE_SUFFIX = ".png";

    /** {@code UUID.toString()}: 8-4-4-4-12 hex digits. */
    private static final int UUID_LENGTH = 36;

    private static final int IMAGE_LENGTH = UUID_LENGTH + IMAGE_SUFFIX.length();
    private static final int LONGEST_TYPE =
            DatasetGenerator.BOOK_TYPES.stream().mapToInt(String::length).max().orElseThrow();

    BookValidator(int maxObjects) {
        super(
                ObjectKind.BOOKS,
                FIELDS,
                new FieldType[] {
                    FieldType.STRING,
                    FieldType.STRING,
                    FieldType.STRING,
                    FieldType.STRING,
                    FieldType.INTEGER,
                    FieldType.DECIMAL,
                    FieldType.STRING,
                    FieldType.BOOLEAN
                },
                maxObjects);
    }

    @Override
    public int maxLength(int field) {
        return switch (field) {
            case TITLE -> 30;
            case AUTHOR -> 20;
            case DESCRIPTION -> 400;
            case IMAGE -> IMAGE_LENGTH;
            case TYPE -> LONGEST_TYPE;
            default -> 0;
        };
    }

    @Override
    protected boolean validString(int field, CharSequence value) {
        return switch (field) {
            case TITLE -> Texts.alphanumeric(value, 10, 30);
            case AUTHOR -> Texts.alphanumeric(value, 10, 20);
            case DESCRIPTION -> Texts.alphanumeric(value, 100, 400);
            case IMAGE -> isImage(value);
            case TYPE -> Texts.indexOf(value, DatasetGenerator.BOOK_TYPES) >= 0;
            default -> false;
        };
    }

    /**
     * A version-4, IETF-variant UUID in lowercase ({@code
     * xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx}) + .png.
     */
    private static boolean isImage(CharSequence value) {
        if (value.length() != IMAGE_LENGTH) {
            return false;
        }
        for (int i = 0; i < UUID_LENGTH; i++) {
            char c = value.charAt(i);
            boolean valid =
                    switch (i) {
                        case 8, 13, 18, 23 -> c == '-';
                        case 14 -> c == '4';
                        case 19 -> c == '8' || c == '9' || c == 'a' || c == 'b';
                        default -> Texts.lowerHex(c);
                    };
            if (!valid) {
                return false;
            }
        }
        for (int i = 0; i < IMAGE_SUFFIX.length(); i++) {
            if (value.charAt(UUID_LENGTH + i) != IMAGE_SUFFIX.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    @Override
    protected boolean validInteger(int field, long value) {
        return field == NUM_IN_STOCK && value >= 0 && value <= MAX_IN_STOCK;
    }

    @Override
    protected boolean validCents(int field, long cents) {
        return field == PRICE && cents >= 0 && cents <= MAX_PRICE_CENTS;
    }

    @Override
    protected String rule(int field) {
        return switch (field) {
            case TITLE -> "a string of 10–30 characters from 0-9, A-Z, a-z";
            case AUTHOR -> "a string of 10–20 characters from 0-9, A-Z, a-z";
            case DESCRIPTION -> "a string of 100–400 characters from 0-9, A-Z, a-z";
            case IMAGE ->
                    "a string of 40 characters: a lowercase version-4 UUID followed by \".png\"";
            case NUM_IN_STOCK -> "an integer from 0 to " + MAX_IN_STOCK;
            case PRICE -> "a number from 0 to 2000 with at most 2 decimals";
            case TYPE -> "one of " + String.join(", ", DatasetGenerator.BOOK_TYPES);
            case ON_SALE -> "a boolean (true or false)";
            default -> throw new IllegalArgumentException("no field " + field);
        };
    }
}
