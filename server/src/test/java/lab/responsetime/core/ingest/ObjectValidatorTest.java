package lab.responsetime.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import lab.responsetime.api.Book;
import lab.responsetime.api.Video;
import lab.responsetime.core.dataset.DatasetGenerator;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.JacksonMappers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The domain tier of the collector's rules: whatever the generator makes passes (every object of a
 * large dataset, every possible price), and each rule refuses what lies just outside it, with a
 * message that names the object, the field and what is allowed.
 */
class ObjectValidatorTest {
    /**
     * Objects of each kind checked: enough for every length, type, format and resolution many times
     * over.
     */
    private static final int GENERATED = 200_000;

    private static final String UUID = "0f8fad5b-d9cb-469f-a165-70867728950e";

    @Test
    void everyGeneratedBookPasses() throws Exception {
        ObjectValidator validator = ObjectValidator.of(ObjectKind.BOOKS, GENERATED);
        for (Book book : DatasetGenerator.books(IngestBodies.SEED, GENERATED)) {
            validator.startObject();
            validator.string(validator.field("title"), book.title());
            validator.string(validator.field("author"), book.author());
            validator.string(validator.field("description"), book.description());
            validator.string(validator.field("image"), book.image());
            validator.integer(validator.field("numInStock"), book.numInStock());
            validator.decimal(validator.field("price"), book.price());
            validator.string(validator.field("type"), book.type());
            validator.bool(validator.field("onSale"), book.onSale());
            validator.endObject();
        }
        assertThat(validator.count()).isEqualTo(GENERATED);
    }

    @Test
    void everyGeneratedVideoPasses() throws Exception {
        ObjectValidator validator = ObjectValidator.of(ObjectKind.VIDEOS, GENERATED);
        for (Video video : DatasetGenerator.videos(IngestBodies.SEED, GENERATED)) {
            validator.startObject();
            validator.string(validator.field("uri"), video.uri());
            validator.string(validator.field("title"), video.title());
            validator.string(validator.field("format"), video.format());
            validator.integer(validator.field("height"), video.height());
            validator.integer(validator.field("width"), video.width());
            validator.integer(validator.field("length"), video.length());
            validator.integer(validator.field("views"), video.views());
            validator.bool(validator.field("enabled"), video.enabled());
            validator.endObject();
        }
        assertThat(validator.count()).isEqualTo(GENERATED);
    }

    /**
     * The generator's prices are cents / 100f: every one passes as a float and as the text encoders
     * write.
     */
    @Test
    void everyPossiblePricePassesAsCarriedAndAsWritten() throws Exception {
        ObjectValidator validator = ObjectValidator.of(ObjectKind.BOOKS, 1);
        int price = validator.fields().indexOf("price");
        int passed = 0;
        for (int cents = 0; cents <= 200_000; cents++) {
            float value = cents / 100f;
            double carried = cents / 100.0;
            String written = JacksonMappers.JSON.writeValueAsString(value);
            assertThatCode(
                            () -> {
                                validator.decimal(price, value);
                                validator.decimal(price, carried);
                                validator.decimalLiteral(price, written);
                            })
                    .as("price %s", written)
                    .doesNotThrowAnyException();
            passed++;
        }
        assertThat(passed).isEqualTo(200_001);
    }

    @ParameterizedTest(name = "{0}.{1} = {2} → {3}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
                    books  | title       | a*10                   | true
                    books  | title       | Z*30                   | true
                    books  | title       | a*9                    | false
                    books  | title       | a*31                   | false
                    books  | title       | abcdefghi-             | false
                    books  | title       | abcdefghi\u00e9        | false
                    books  | title       | ' abcdefghij'          | false
                    books  | author      | 0*20                   | true
                    books  | author      | 0*21                   | false
                    books  | description | x*100                  | true
                    books  | description | x*400                  | true
                    books  | description | x*99                   | false
                    books  | description | x*401                  | false
                    books  | image       | UUID.png               | true
                    books  | image       | UUID.jpg               | false
                    books  | image       | UUID                   | false
                    books  | image       | 0F8FAD5B-D9CB-469F-A165-70867728950E.png | false
                    books  | image       | 0f8fad5b-d9cb-169f-a165-70867728950e.png | false
                    books  | image       | 0f8fad5b-d9cb-469f-c165-70867728950e.png | false
                    books  | image       | 0f8fad5b-d9cb-469f-a165-70867728950g.png | false
                    books  | image       | 0f8fad5bd-9cb-469f-a165-70867728950e.png | false
                    books  | numInStock  | 0                      | true
                    books  | numInStock  | 1000                   | true
                    books  | numInStock  | 1001                   | false
                    books  | numInStock  | -1                     | false
                    books  | numInStock  | 01                     | false
                    books  | numInStock  | 1.0                    | false
                    books  | numInStock  | ''                     | false
                    books  | numInStock  | 99999999999999999999   | false
                    books  | price       | 0                      | true
                    books  | price       | 0.0                    | true
                    books  | price       | 0.01                   | true
                    books  | price       | 12                     | true
                    books  | price       | 12.5                   | true
                    books  | price       | 2000                   | true
                    books  | price       | 2000.00                | true
                    books  | price       | 2000.01                | false
                    books  | price       | 12.345                 | false
                    books  | price       | -1                     | false
                    books  | price       | 1e2                    | false
                    books  | price       | .5                     | false
                    books  | price       | 5.                     | false
                    books  | price       | 012.5                  | false
                    books  | type        | DIGITAL                | true
                    books  | type        | HARDCOVER              | true
                    books  | type        | PAPERBACK              | true
                    books  | type        | digital                | false
                    books  | type        | EBOOK                  | false
                    books  | onSale      | true                   | true
                    books  | onSale      | false                  | true
                    books  | onSale      | TRUE                   | false
                    books  | onSale      | 1                      | false
                    videos | uri         | https://www.youtube.com/watch?v=abcDEF12345 | true
                    videos | uri         | https://www.youtube.com/watch?v=abcDEF1234  | false
                    videos | uri         | https://www.youtube.com/watch?v=abcDEF123456 | false
                    videos | uri         | https://www.youtube.com/watch?v=abc-EF12345 | false
                    videos | uri         | http://www.youtube.com/watch?v=abcDEF123456 | false
                    videos | title       | a*10                   | true
                    videos | title       | a*31                   | false
                    videos | format      | mp4                    | true
                    videos | format      | ogg                    | true
                    videos | format      | MP4                    | false
                    videos | format      | mpeg                   | false
                    videos | height      | 256                    | true
                    videos | height      | 3840                   | true
                    videos | height      | 255                    | false
                    videos | height      | 144                    | false
                    videos | width       | 144                    | true
                    videos | width       | 256                    | false
                    videos | length      | 10                     | true
                    videos | length      | 3600                   | true
                    videos | length      | 9                      | false
                    videos | length      | 3601                   | false
                    videos | views       | 0                      | true
                    videos | views       | 10000000               | true
                    videos | views       | 10000001               | false
                    videos | enabled     | false                  | true
                    videos | enabled     | no                     | false
                    """)
    void eachRuleAllowsWhatTheGeneratorMakesAndNothingBeyond(
            String kind, String field, String value, boolean valid) throws Exception {
        ObjectValidator validator =
                ObjectValidator.of(kind.equals("books") ? ObjectKind.BOOKS : ObjectKind.VIDEOS, 1);
        String text = expand(value);
        validator.startObject();
        int index = validator.field(field);
        if (valid) {
            assertThatCode(() -> validator.text(index, text)).doesNotThrowAnyException();
        } else {
            assertThatThrownBy(() -> validator.text(index, text))
                    .isInstanceOf(InvalidBodyException.class)
                    .hasMessageStartingWith(kind + "[0]." + field + " must be ")
                    .satisfies(e -> assertThat(((InvalidBodyException) e).field()).contains(field))
                    .satisfies(e -> assertThat(((InvalidBodyException) e).object()).hasValue(0));
        }
    }

    /** {@code a*10} is ten a's; {@code UUID} stands for a valid version-4 UUID. */
    private static String expand(String value) {
        String text = value == null ? "" : value.replace("UUID", UUID);
        int star = text.lastIndexOf('*');
        return star > 0 && text.substring(star + 1).matches("[0-9]+")
                ? text.substring(0, star).repeat(Integer.parseInt(text.substring(star + 1)))
                : text;
    }

    @Test
    void pricesAsFloatsMustBeTheFloatOfATwoDecimalNumber() throws Exception {
        ObjectValidator validator = ObjectValidator.of(ObjectKind.BOOKS, 1);
        int price = validator.fields().indexOf("price");
        for (double valid : new double[] {0, 12.34f, 12.34, 1999.99f, 2000, 7}) {
            validator.decimal(price, valid);
        }
        for (double invalid :
                new double[] {
                    12.345, 12.340001f, -0.01, 2000.01f, Double.NaN, Double.POSITIVE_INFINITY, 1e300
                }) {
            assertThatThrownBy(() -> validator.decimal(price, invalid))
                    .as(String.valueOf(invalid))
                    .hasMessageStartingWith(
                            "books[0].price must be a number from 0 to 2000 with at most 2"
                                    + " decimals, got ");
        }
    }

    @Test
    void heightAndWidthPairByPosition() throws Exception {
        ObjectValidator validator = ObjectValidator.of(ObjectKind.VIDEOS, 2);
        for (int i = 0; i < 2; i++) {
            validator.startObject();
            validator.text(validator.field("uri"), "https://www.youtube.com/watch?v=abcDEF12345");
            validator.text(validator.field("title"), "abcdefghijk");
            validator.text(validator.field("format"), "mkv");
            validator.text(validator.field("height"), "1920");
            validator.text(validator.field("width"), i == 0 ? "1080" : "720");
            validator.text(validator.field("length"), "60");
            validator.text(validator.field("views"), "5");
            validator.text(validator.field("enabled"), "true");
            if (i == 0) {
                validator.endObject();
            } else {
                assertThatThrownBy(validator::endObject)
                        .hasMessageStartingWith(
                                "videos[1].width must be 1080 for height 1920 (heights and widths"
                                        + " pair as 256⇒144, 426⇒240")
                        .hasMessageEndingWith("got 720");
            }
        }
    }

    @Test
    void everyFieldOnceAndNoOther() throws Exception {
        ObjectValidator validator = ObjectValidator.of(ObjectKind.BOOKS, 5);
        validator.startObject();
        assertThatThrownBy(() -> validator.field("color"))
                .hasMessage(
                        "books[0] has an unknown field \"color\"; a book has exactly the fields"
                                + " title, author, description, image, numInStock, price, type,"
                                + " onSale");
        validator.field("title");
        assertThatThrownBy(() -> validator.field("title"))
                .hasMessage("books[0].title is given twice; give each field once");
        validator.field("price");
        assertThatThrownBy(validator::endObject)
                .hasMessageStartingWith(
                        "books[0] has no author, description, image, numInStock, type, onSale;")
                .satisfies(e -> assertThat(((InvalidBodyException) e).field()).contains("author"));
    }

    @Test
    void moreObjectsThanTheLimitAreTooLarge() throws Exception {
        ObjectValidator validator = ObjectValidator.of(ObjectKind.BOOKS, 1);
        Book book = DatasetGenerator.books(IngestBodies.SEED, 1).get(0);
        validator.startObject();
        validator.text(validator.field("title"), book.title());
        validator.text(validator.field("author"), book.author());
        validator.text(validator.field("description"), book.description());
        validator.text(validator.field("image"), book.image());
        validator.text(validator.field("numInStock"), String.valueOf(book.numInStock()));
        validator.text(
                validator.field("price"), JacksonMappers.JSON.writeValueAsString(book.price()));
        validator.text(validator.field("type"), book.type());
        validator.text(validator.field("onSale"), String.valueOf(book.onSale()));
        validator.endObject();
        assertThatThrownBy(validator::startObject)
                .isInstanceOf(BodyTooLargeException.class)
                .hasMessage("the list has more than 1 books, the limit (ingest.maxObjects)");
    }

    @Test
    void anAbsentProtobufFieldIsItsDefaultValue() throws Exception {
        ObjectValidator validator = ObjectValidator.of(ObjectKind.BOOKS, 1);
        validator.startObject();
        validator.absentAsDefault(validator.fields().indexOf("numInStock"));
        validator.absentAsDefault(validator.fields().indexOf("price"));
        validator.absentAsDefault(validator.fields().indexOf("onSale"));
        assertThatThrownBy(() -> validator.absentAsDefault(validator.fields().indexOf("title")))
                .hasMessage(
                        "books[0].title must be a string of 10–30 characters from 0-9, A-Z, a-z,"
                                + " got nothing (an absent field reads as proto3's default, \"\")");
    }

    @Test
    void messagesQuoteValuesShortly() {
        assertThat(Texts.quote("a\"b\\c\n")).isEqualTo("\"a\\\"b\\\\c\\u000a\"");
        assertThat(Texts.quote("x".repeat(500)))
                .isEqualTo("\"" + "x".repeat(40) + "…\" (500 characters)");
        assertThat(
                        List.of(
                                Texts.cents("12"),
                                Texts.cents("12.5"),
                                Texts.cents("0.07"),
                                Texts.cents("12.345")))
                .containsExactly(1200L, 1250L, 7L, -1L);
    }
}
