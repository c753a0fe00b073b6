package lab.responsetime.core.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SchemaInferenceTest {
    private static SchemaInference.Inferred infer(String json) throws Exception {
        return SchemaInference.infer(
                DatasetParser.parse(
                        new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)),
                        Long.MAX_VALUE));
    }

    private static String types(Schema schema) {
        StringBuilder text = new StringBuilder();
        for (Schema.SchemaField field : schema.fields()) {
            text.append(field.name())
                    .append(':')
                    .append(field.typeName())
                    .append(field.optional() ? "?" : "");
            if (field.nested() != null) {
                text.append('{').append(types(field.nested())).append('}');
            }
            text.append(' ');
        }
        return text.toString().trim();
    }

    @Test
    void infersEveryTypeFromAllObjects() throws Exception {
        SchemaInference.Inferred inferred =
                infer(
                        "[{\"s\":\"a\",\"i\":1,\"l\":1,\"d\":1,\"b\":true,"
                                + "\"o\":{\"x\":1},\"t\":[\"a\"],\"os\":[{\"k\":1}],\"e\":[]},"
                                + "{\"s\":\"b\",\"i\":-2147483648,\"l\":2147483648,\"d\":2.5,"
                                + "\"b\":false,\"t\":[],\"os\":[{\"k\":2,\"m\":\"z\"}],\"e\":[],"
                                + "\"late\":null}, {\"s\":\"c\",\"i\":0,\"l\":0,\"d\":0,"
                                + "\"b\":true,\"t\":[],\"os\":[],\"e\":[],\"late\":\"x\"}]");

        assertThat(types(inferred.schema()))
                .isEqualTo(
                        "s:string i:int32 l:int64 d:double b:bool o:object?{x:int32}"
                                + " t:string[] os:object[]{k:int32 m:string?} e:string[]"
                                + " late:string?");
        assertThat(inferred.rows()).hasSize(3);
        assertThat(inferred.rows().get(1)[2]).isEqualTo(2147483648L);
        assertThat(inferred.rows().get(0)[3]).isEqualTo(1.0);
        assertThat(inferred.rows().get(1)[5]).isNull();
        assertThat(inferred.schema().scalarFields()).containsExactly(0, 1, 2, 3, 4, 9);
    }

    @Test
    void readsJsonLinesLikeAnArray() throws Exception {
        SchemaInference.Inferred lines = infer("{\"a\":1}\n{\"a\":2,\"b\":\"x\"}\n");
        SchemaInference.Inferred array = infer("[{\"a\":1},{\"a\":2,\"b\":\"x\"}]");
        assertThat(types(lines.schema()))
                .isEqualTo(types(array.schema()))
                .isEqualTo("a:int32 b:string?");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not JSON|nope|not JSON",
                "empty body|''|the body is empty",
                "empty list|[]|the list is empty",
                "a list of strings|[\"a\"]|object 0 is a string; a dataset is a list of objects",
                "a scalar at the top|42|the body must be a JSON array of objects or JSON Lines",
                "string then number|[{\"a\":\"x\"},{\"a\":1}]|object 1, field \"a\": an integer"
                        + " here, but a string in object 0",
                "mixed array|[{\"a\":[1,\"x\"]}]|object 0, field \"a[]\": a string here, but an"
                        + " integer in object 0",
                "array of arrays|[{\"a\":[[1]]}]|object 0, field \"a\": an array of arrays",
                "null in an array|[{\"a\":[null]}]|object 0, field \"a\": an array holds null",
                "always null|[{\"a\":null}]|field \"a\" is null in every object",
                "name with a space|[{\"a b\":1}]|object 0, field \"a b\": a field name is letters",
                "name with a digit first|[{\"1a\":1}]|object 0, field \"1a\"",
                "name with xml|[{\"xmlns\":1}]|XML reserves names",
                "clashing names|[{\"a_b\":1,\"aB\":2}]|differs from the field \"a_b\"",
                "too big an integer|[{\"a\":18446744073709551616}]|needs more than 64 bits",
                "infinite|[{\"a\":1e999}]|beyond a 64-bit floating-point",
                "control character|[{\"a\":\"\\u0001\"}]|the character U+0001",
                "unpaired surrogate|[{\"a\":\"\\ud800\"}]|an unpaired surrogate",
                "duplicate names|[{\"a\":1,\"a\":2}]|not JSON: Duplicate field 'a'",
                "deep|[{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":1}}}}}}}}}]|nested"
                    + " more than 8 levels",
                "second value not an object|{\"a\":1} [1]|of the JSON Lines is not an object",
            })
    void refusesWhatCannotMapToEveryFormat(String what, String json, String message) {
        assertThatThrownBy(() -> infer(json))
                .isInstanceOf(DatasetRefusedException.class)
                .hasMessageContaining(message);
    }

    @Test
    void refusalsNameTheObjectAndTheField() {
        assertThatThrownBy(() -> infer("[{\"a\":{\"b\":1}},{\"a\":{\"b\":\"x\"}}]"))
                .isInstanceOfSatisfying(
                        DatasetRefusedException.class,
                        e -> {
                            assertThat(e.object()).isEqualTo(1);
                            assertThat(e.field()).isEqualTo("a.b");
                        });
    }

    @Test
    void theProtoOfASchemaNamesEveryFieldAndBuilds() throws Exception {
        Schema schema =
                infer("[{\"a\":1,\"o\":{\"x\":\"s\"},\"r\":[{\"y\":true}],\"opt\":2.5},{\"a\":2}]")
                        .schema();
        ProtoSchema proto = ProtoSchema.of("my-data", schema);
        assertThat(proto.text())
                .isEqualTo(
                        String.join(
                                "\n",
                                "syntax = \"proto3\";",
                                "",
                                "package lab.datasets.my_data;",
                                "",
                                "message Item {",
                                "  int32 a = 1;",
                                "  Item_o o = 2;",
                                "  repeated Item_r r = 3;",
                                "  optional double opt = 4;",
                                "}",
                                "",
                                "message Item_o {",
                                "  string x = 1;",
                                "}",
                                "",
                                "message Item_r {",
                                "  bool y = 1;",
                                "}",
                                "",
                                "message ItemList {",
                                "  repeated Item items = 1;",
                                "}",
                                ""));
        assertThat(proto.listMessage()).isEqualTo("lab.datasets.my_data.ItemList");
    }
}
