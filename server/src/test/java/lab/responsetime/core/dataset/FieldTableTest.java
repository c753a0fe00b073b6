package lab.responsetime.core.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each kind's field table and its representation name the same fields, in order, of one type. */
class FieldTableTest {
    private static final Map<Class<?>, FieldType> TYPES =
            Map.of(
                    String.class, FieldType.STRING,
                    int.class, FieldType.INTEGER,
                    float.class, FieldType.DECIMAL,
                    boolean.class, FieldType.BOOLEAN);

    @Test
    void theTableIsTheRecordsFields() {
        for (ObjectKind<?> kind : ObjectKind.ALL) {
            RecordComponent[] components = kind.type().getRecordComponents();
            assertThat(kind.fields().stream().map(Field::name))
                    .as(kind.plural())
                    .containsExactlyElementsOf(
                            Arrays.stream(components).map(RecordComponent::getName).toList());
            assertThat(kind.fields().stream().map(Field::type))
                    .as(kind.plural())
                    .containsExactlyElementsOf(
                            Arrays.stream(components).map(c -> TYPES.get(c.getType())).toList());
        }
    }

    @Test
    void theRulesSayWhatTheyAllow() {
        assertThat(SpecFields.BOOK.stream().map(f -> f.name() + ": " + f.rule().words()))
                .containsExactly(
                        "title: a string of 10–30 characters from 0-9, A-Z, a-z",
                        "author: a string of 10–20 characters from 0-9, A-Z, a-z",
                        "description: a string of 100–400 characters from 0-9, A-Z, a-z",
                        "image: a string of 40 characters: a lowercase version-4 UUID followed"
                                + " by \".png\"",
                        "numInStock: an integer from 0 to 1000",
                        "price: a number from 0 to 2000 with at most 2 decimals",
                        "type: one of DIGITAL, HARDCOVER, PAPERBACK",
                        "onSale: a boolean (true or false)");
        assertThat(SpecFields.VIDEO.stream().map(f -> f.name() + ": " + f.rule().words()))
                .containsExactly(
                        "uri: \"https://www.youtube.com/watch?v=\" followed by 11 characters from"
                                + " 0-9, A-Z, a-z",
                        "title: a string of 10–30 characters from 0-9, A-Z, a-z",
                        "format: one of webm, mkv, flv, mp4, avi, mov, wmv, ogg",
                        "height: one of 256, 426, 640, 854, 1280, 1920, 2560, 3840",
                        "width: one of 144, 240, 360, 480, 720, 1080, 1440, 2160, paired with the"
                                + " height as 256⇒144, 426⇒240, 640⇒360, 854⇒480, 1280⇒720,"
                                + " 1920⇒1080, 2560⇒1440, 3840⇒2160",
                        "length: an integer from 10 to 3600",
                        "views: an integer from 0 to 10000000",
                        "enabled: a boolean (true or false)");
    }
}
