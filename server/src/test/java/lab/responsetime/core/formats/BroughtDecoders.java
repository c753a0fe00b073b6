package lab.responsetime.core.formats;

import co.nstant.in.cbor.CborDecoder;
import co.nstant.in.cbor.model.DataItem;
import co.nstant.in.cbor.model.DoublePrecisionFloat;
import co.nstant.in.cbor.model.SimpleValue;
import co.nstant.in.cbor.model.UnicodeString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import lab.responsetime.core.dataset.ObjectKind;
import lab.responsetime.core.dataset.Schema;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.Value;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Decoders of a brought dataset's bodies into plain Java values (maps, lists, strings, longs,
 * doubles, booleans; a field without a value is absent) that share no code with the encoders:
 * Jackson's tree model for JSON, the JDK's DOM parser for both XMLs (typed by the schema the server
 * published), cbor-java for CBOR, msgpack-core's unpacker for MessagePack, and protobuf-java's
 * DynamicMessage parser for Protobuf (with the published schema's descriptor;
 * experiments/datasets/check_dataset.py decodes with protoc's own code instead).
 */
public final class BroughtDecoders {
    private static final ObjectMapper TREE = new ObjectMapper();

    private BroughtDecoders() {}

    /** An uncompressed body of {@code format} as plain objects. */
    public static List<Object> decode(Format format, ObjectKind<Object[]> kind, byte[] body)
            throws Exception {
        Schema schema = kind.schema().orElseThrow();
        return switch (format) {
            case JSON -> list(plain(TREE.readTree(body)));
            case XML, XML_ATTRIBUTES -> fromXml(kind.plural(), schema, body);
            case CBOR ->
                    list(fromCbor(new CborDecoder(new ByteArrayInputStream(body)).decodeNext()));
            case MSGPACK -> {
                try (MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(body)) {
                    yield list(fromMsgpack(unpacker.unpackValue()));
                }
            }
            case PROTOBUF -> {
                DynamicMessage message =
                        DynamicMessage.parseFrom(
                                kind.protoSchema()
                                        .message(schema, new Object[schema.fields().size()])
                                        .getDescriptorForType()
                                        .getFile()
                                        .findMessageTypeByName("ItemList"),
                                body);
                List<Object> objects = new ArrayList<>();
                for (Object item :
                        (List<?>)
                                message.getField(
                                        message.getDescriptorForType().findFieldByName("items"))) {
                    objects.add(fromProto((Message) item));
                }
                yield objects;
            }
        };
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object value) {
        return (List<Object>) value;
    }

    private static Object plain(JsonNode node) {
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> i = node.fields(); i.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = i.next();
                if (!entry.getValue().isNull()) {
                    map.put(entry.getKey(), plain(entry.getValue()));
                }
            }
            return map;
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>();
            node.forEach(element -> list.add(plain(element)));
            return list;
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isIntegralNumber()) {
            return node.longValue();
        }
        return node.doubleValue();
    }

    private static List<Object> fromXml(String root, Schema schema, byte[] body) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Element document =
                factory.newDocumentBuilder()
                        .parse(new ByteArrayInputStream(body))
                        .getDocumentElement();
        if (!document.getTagName().equals(root)) {
            throw new AssertionError("root <" + document.getTagName() + ">, not <" + root + ">");
        }
        List<Object> objects = new ArrayList<>();
        for (Element item : children(document)) {
            if (!item.getTagName().equals("item")) {
                throw new AssertionError("an object element <" + item.getTagName() + ">");
            }
            objects.add(xmlObject(schema, item));
        }
        return objects;
    }

    private static Map<String, Object> xmlObject(Schema schema, Element element) {
        Map<String, Object> map = new LinkedHashMap<>();
        int known = 0;
        for (Schema.SchemaField field : schema.fields()) {
            if (element.hasAttribute(field.name())) {
                map.put(field.name(), xmlScalar(field, element.getAttribute(field.name())));
                known++;
                continue;
            }
            Element child = null;
            for (Element candidate : children(element)) {
                if (candidate.getTagName().equals(field.name())) {
                    child = candidate;
                }
            }
            if (child == null) {
                continue;
            }
            known++;
            if (field.repeated()) {
                List<Object> list = new ArrayList<>();
                for (Element item : children(child)) {
                    list.add(xmlValue(field, item));
                }
                map.put(field.name(), list);
            } else {
                map.put(field.name(), xmlValue(field, child));
            }
        }
        if (known != element.getAttributes().getLength() + children(element).size()) {
            throw new AssertionError("an element with fields not in the schema: " + element);
        }
        return map;
    }

    private static Object xmlValue(Schema.SchemaField field, Element element) {
        return field.nested() != null
                ? xmlObject(field.nested(), element)
                : xmlScalar(field, element.getTextContent());
    }

    private static Object xmlScalar(Schema.SchemaField field, String text) {
        return switch (field.type()) {
            case STRING -> text;
            case INT32, INT64 -> Long.parseLong(text);
            case DOUBLE -> Double.parseDouble(text);
            case BOOLEAN -> {
                if (!text.equals("true") && !text.equals("false")) {
                    throw new AssertionError("a boolean " + text);
                }
                yield text.equals("true");
            }
            case OBJECT -> throw new AssertionError("an object as text");
        };
    }

    private static List<Element> children(Element element) {
        List<Element> children = new ArrayList<>();
        for (Node node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element child) {
                children.add(child);
            }
        }
        return children;
    }

    private static Object fromCbor(DataItem item) {
        if (item instanceof co.nstant.in.cbor.model.Map map) {
            Map<String, Object> result = new LinkedHashMap<>();
            for (DataItem key : map.getKeys()) {
                result.put(((UnicodeString) key).getString(), fromCbor(map.get(key)));
            }
            return result;
        }
        if (item instanceof co.nstant.in.cbor.model.Array array) {
            List<Object> result = new ArrayList<>();
            for (DataItem element : array.getDataItems()) {
                if (!element.equals(SimpleValue.BREAK)) {
                    result.add(fromCbor(element));
                }
            }
            return result;
        }
        if (item instanceof UnicodeString string) {
            return string.getString();
        }
        if (item instanceof co.nstant.in.cbor.model.Number number) {
            return number.getValue().longValueExact();
        }
        if (item instanceof DoublePrecisionFloat floating) {
            return floating.getValue();
        }
        if (item instanceof SimpleValue simple) {
            return switch (simple.getSimpleValueType()) {
                case TRUE -> true;
                case FALSE -> false;
                default -> throw new AssertionError("a CBOR simple value " + simple);
            };
        }
        throw new AssertionError("a CBOR item the server does not write: " + item);
    }

    private static Object fromMsgpack(Value value) {
        if (value.isMapValue()) {
            Map<String, Object> result = new LinkedHashMap<>();
            for (Map.Entry<Value, Value> entry : value.asMapValue().entrySet()) {
                result.put(
                        entry.getKey().asStringValue().asString(), fromMsgpack(entry.getValue()));
            }
            return result;
        }
        if (value.isArrayValue()) {
            List<Object> result = new ArrayList<>();
            value.asArrayValue().forEach(element -> result.add(fromMsgpack(element)));
            return result;
        }
        if (value.isStringValue()) {
            return value.asStringValue().asString();
        }
        if (value.isIntegerValue()) {
            return value.asIntegerValue().asLong();
        }
        if (value.isFloatValue()) {
            return value.asFloatValue().toDouble();
        }
        if (value.isBooleanValue()) {
            return value.asBooleanValue().getBoolean();
        }
        throw new AssertionError("a MessagePack value the server does not write: " + value);
    }

    private static Map<String, Object> fromProto(Message message) {
        Map<String, Object> result = new LinkedHashMap<>();
        for (FieldDescriptor field : message.getDescriptorForType().getFields()) {
            if (field.isRepeated()) {
                List<Object> list = new ArrayList<>();
                for (int i = 0; i < message.getRepeatedFieldCount(field); i++) {
                    list.add(protoValue(message.getRepeatedField(field, i)));
                }
                result.put(field.getName(), list);
            } else if (!field.hasPresence() || message.hasField(field)) {
                result.put(field.getName(), protoValue(message.getField(field)));
            }
        }
        return result;
    }

    private static Object protoValue(Object value) {
        if (value instanceof Message message) {
            return fromProto(message);
        }
        if (value instanceof Integer number) {
            return (long) number;
        }
        return value;
    }
}
