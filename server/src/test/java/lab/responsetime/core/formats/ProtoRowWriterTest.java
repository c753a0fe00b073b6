package lab.responsetime.core.formats;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import lab.responsetime.core.dataset.DatasetParser;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.dataset.SchemaInference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The schema's own Protobuf writer writes, byte for byte, what protobuf-java's {@link
 * com.google.protobuf.DynamicMessage} of the same descriptors writes: defaults left out or kept as
 * proto3 has them, optional scalars, nested and repeated messages, packed numbers.
 */
class ProtoRowWriterTest {
    @ParameterizedTest
    @ValueSource(
            strings = {
                "[{\"s\":\"a\",\"i\":1,\"d\":0.5,\"b\":true},{\"s\":\"\",\"i\":0,\"d\":0,\"b\":false}]",
                "[{\"i\":-1,\"d\":-0.0,\"l\":-9223372036854775808},{\"i\":2147483647,\"d\":1e300,"
                        + "\"l\":9223372036854775807}]",
                "[{\"o\":0,\"t\":\"x\",\"f\":false},{\"t\":null},{\"o\":3,\"f\":true},{}]",
                "[{\"u\":{\"n\":\"ü😀\",\"g\":{\"lat\":1.5,\"lon\":0}},\"tags\":[\"a\",\"\"],"
                        + "\"nums\":[1,-2,0],\"ds\":[0.0,-1.5],\"bs\":[true,false],"
                        + "\"parts\":[{\"k\":1},{\"k\":0,\"v\":\"x\"},{}]},"
                        + "{\"tags\":[],\"nums\":[],\"parts\":[]}]",
                "[{\"big\":9007199254740993,\"bigs\":[-1,4294967296]}]",
            })
    void writesWhatDynamicMessageWrites(String json) throws Exception {
        SchemaInference.Inferred inferred =
                SchemaInference.infer(
                        DatasetParser.parse(
                                new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)),
                                Long.MAX_VALUE));
        ObjectKind<Object[]> kind = ObjectKind.brought("shapes", inferred.schema());
        List<Object[]> rows = inferred.rows();

        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        CodedOutputStream coded = CodedOutputStream.newInstance(expected);
        for (Object[] row : rows) {
            coded.writeMessage(1, kind.protoSchema().message(inferred.schema(), row));
        }
        coded.flush();
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        Format.PROTOBUF.codec().encode(kind, rows, written);

        assertThat(written.toByteArray()).isEqualTo(expected.toByteArray());
        // protobuf-java's own way, the list message built whole: the same bytes again.
        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        Format.PROTOBUF.codec().libraryWrite(kind, rows).writeTo(whole);
        assertThat(whole.toByteArray()).isEqualTo(expected.toByteArray());
    }
}
