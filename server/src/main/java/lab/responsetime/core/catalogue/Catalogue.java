package lab.responsetime.core.catalogue;

import com.google.protobuf.Descriptors.Descriptor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lab.responsetime.core.compression.Compression;
import lab.responsetime.core.computation.ComputationModel;
import lab.responsetime.core.dataset.Field;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.formats.Format;

/**
 * The lab's catalogue: every format (with its browser decoders), compression (with its
 * Content-Encoding and levels), object kind (fields, types, sort sequence), computation model and
 * scenario, described from the server's own enums. {@code GET /api/catalogue} serves it, {@code
 * common/catalogue-data.js} holds a copy for the Node tools (a test fails when the two differ), and
 * every other layer — the page's controls, the client's schema, plan validation, the analysis's
 * labels, pairs and charts — derives from it.
 */
public final class Catalogue {
    private Catalogue() {}

    /** The catalogue as JSON-ready maps and lists, in a fixed order. */
    public static Map<String, Object> describe() {
        Map<String, Object> catalogue = new LinkedHashMap<>();
        catalogue.put("formats", Arrays.stream(Format.values()).map(Catalogue::format).toList());
        catalogue.put(
                "compressions",
                Arrays.stream(Compression.values()).map(Catalogue::compression).toList());
        catalogue.put("objects", ObjectKind.ALL.stream().map(Catalogue::object).toList());
        catalogue.put(
                "computation_models",
                Arrays.stream(ComputationModel.values()).map(Catalogue::model).toList());
        catalogue.put(
                "scenarios", Arrays.stream(Scenario.values()).map(Catalogue::scenario).toList());
        catalogue.put(
                "scenario_families",
                Arrays.stream(Scenario.Family.values()).map(Catalogue::family).toList());
        return catalogue;
    }

    private static Map<String, Object> format(Format format) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", format.parameter());
        entry.put("label", format.label());
        entry.put("media_type", format.mediaType());
        List<Map<String, Object>> decoders = new ArrayList<>();
        for (Format.BrowserDecoder decoder : format.decoders()) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("name", decoder.name());
            d.put("label", decoder.label());
            decoders.add(d);
        }
        entry.put("decoders", decoders);
        entry.put("default_decoder", format.decoders().get(0).name());
        return entry;
    }

    private static Map<String, Object> compression(Compression compression) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", compression.parameter());
        entry.put("label", compression.label());
        entry.put("encoding", compression.contentEncoding().orElse(null));
        entry.put("levels", compression.levels().map(Catalogue::levels).orElse(null));
        return entry;
    }

    /**
     * {@code {"min": …, "max": …, "default": …}}; also what {@code /api/info} states per
     * compression.
     */
    public static Map<String, Object> levels(Compression.Levels levels) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("min", levels.min());
        entry.put("max", levels.max());
        entry.put("default", levels.defaultLevel());
        return entry;
    }

    private static Map<String, Object> object(ObjectKind<?> kind) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", kind.plural());
        entry.put("label", kind.label());
        entry.put("element", kind.singular());
        Descriptor list = kind.protoListDescriptor();
        entry.put("protobuf_list", list.getFullName());
        entry.put("protobuf_list_field", list.getFields().get(0).getName());
        List<Map<String, Object>> fields = new ArrayList<>();
        for (Field field : kind.fields()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", field.name());
            row.put("type", field.type().catalogueName());
            fields.add(row);
        }
        entry.put("fields", fields);
        entry.put(
                "sort_sequence",
                kind.sortSequence().stream().map(ObjectKind.SortKey::property).toList());
        return entry;
    }

    private static Map<String, Object> model(ComputationModel model) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("level", model.level());
        entry.put("name", model.name());
        entry.put("label", model.label());
        entry.put("repetitions", model.repetitions());
        return entry;
    }

    private static Map<String, Object> scenario(Scenario scenario) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("number", scenario.number());
        entry.put("label", scenario.label());
        entry.put("timed", scenario.timed());
        entry.put("family", scenario.family().id());
        entry.put("computes", scenario.computes().name().toLowerCase());
        entry.put("requests", scenario.requests());
        entry.put("computations", scenario.computations());
        entry.put("cached", scenario.cached());
        return entry;
    }

    private static Map<String, Object> family(Scenario.Family family) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", family.id());
        entry.put("label", family.label());
        entry.put("compared", family.compared().stream().map(Scenario::number).toList());
        entry.put("varies", family.varies());
        return entry;
    }
}
