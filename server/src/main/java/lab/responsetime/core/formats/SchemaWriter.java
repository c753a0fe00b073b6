package lab.responsetime.core.formats;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.dataformat.xml.ser.ToXmlGenerator;
import java.io.IOException;
import java.util.List;
import javax.xml.namespace.QName;
import lab.responsetime.core.dataset.Schema;
import lab.responsetime.core.dataset.ValueType;

/**
 * Writes the rows of a brought dataset from its {@link Schema} with a Jackson generator: JSON, CBOR
 * and MessagePack as an array of maps (docs/datasets.md#formats), XML with {@link ToXmlGenerator}
 * in either style. A field without a value is left out; every format writes the fields in the
 * schema's order, except XML with attributes, which writes an object's scalars (as attributes)
 * before its nested values (child elements).
 */
final class SchemaWriter {
    /** The element of one object, and of one array element, in XML. */
    static final String XML_ITEM = "item";

    private SchemaWriter() {}

    /** A brought dataset's objects, which are its rows. */
    @SuppressWarnings("unchecked")
    static List<Object[]> rows(List<?> objects) {
        return (List<Object[]>) objects;
    }

    /** The rows as an array of maps. */
    static void writeList(JsonGenerator generator, Schema schema, List<Object[]> rows)
            throws IOException {
        generator.writeStartArray();
        for (Object[] row : rows) {
            writeObject(generator, schema, row);
        }
        generator.writeEndArray();
        generator.close();
    }

    private static void writeObject(JsonGenerator generator, Schema schema, Object[] row)
            throws IOException {
        generator.writeStartObject();
        List<Schema.SchemaField> fields = schema.fields();
        for (int i = 0; i < row.length; i++) {
            Object value = row[i];
            if (value == null) {
                continue;
            }
            Schema.SchemaField field = fields.get(i);
            generator.writeFieldName(field.name());
            if (field.repeated()) {
                generator.writeStartArray();
                for (Object element : (Object[]) value) {
                    writeValue(generator, field, element);
                }
                generator.writeEndArray();
            } else {
                writeValue(generator, field, value);
            }
        }
        generator.writeEndObject();
    }

    private static void writeValue(JsonGenerator generator, Schema.SchemaField field, Object value)
            throws IOException {
        switch (field.type()) {
            case STRING -> generator.writeString((String) value);
            case INT32, INT64 -> generator.writeNumber((long) (Long) value);
            case DOUBLE -> generator.writeNumber((double) (Double) value);
            case BOOLEAN -> generator.writeBoolean((Boolean) value);
            case OBJECT -> writeObject(generator, field.nested(), (Object[]) value);
        }
    }

    /**
     * The rows as an XML document: root {@code <name>}, one {@code <item>} per object; a field a
     * child element of its name, or with {@code attributes} a scalar an attribute; an array a child
     * element holding one {@code <item>} per element.
     */
    static void writeXml(
            ToXmlGenerator generator,
            String root,
            Schema schema,
            List<Object[]> rows,
            boolean attributes)
            throws IOException {
        generator.setNextName(new QName(root));
        generator.writeStartObject();
        for (Object[] row : rows) {
            generator.writeFieldName(XML_ITEM);
            writeXmlObject(generator, schema, row, attributes);
        }
        generator.writeEndObject();
        generator.close();
    }

    private static void writeXmlObject(
            ToXmlGenerator generator, Schema schema, Object[] row, boolean attributes)
            throws IOException {
        generator.writeStartObject();
        List<Schema.SchemaField> fields = schema.fields();
        if (attributes) {
            for (int i = 0; i < row.length; i++) {
                if (row[i] != null && fields.get(i).scalar()) {
                    generator.setNextIsAttribute(true);
                    generator.writeFieldName(fields.get(i).name());
                    writeXmlScalar(generator, fields.get(i).type(), row[i]);
                }
            }
            generator.setNextIsAttribute(false);
        }
        for (int i = 0; i < row.length; i++) {
            Object value = row[i];
            Schema.SchemaField field = fields.get(i);
            if (value == null || attributes && field.scalar()) {
                continue;
            }
            generator.writeFieldName(field.name());
            if (field.repeated()) {
                generator.writeStartObject();
                for (Object element : (Object[]) value) {
                    generator.writeFieldName(XML_ITEM);
                    writeXmlValue(generator, field, element, attributes);
                }
                generator.writeEndObject();
            } else {
                writeXmlValue(generator, field, value, attributes);
            }
        }
        generator.writeEndObject();
    }

    private static void writeXmlValue(
            ToXmlGenerator generator, Schema.SchemaField field, Object value, boolean attributes)
            throws IOException {
        if (field.type() == ValueType.OBJECT) {
            writeXmlObject(generator, field.nested(), (Object[]) value, attributes);
        } else {
            writeXmlScalar(generator, field.type(), value);
        }
    }

    private static void writeXmlScalar(ToXmlGenerator generator, ValueType type, Object value)
            throws IOException {
        switch (type) {
            case STRING -> generator.writeString((String) value);
            case INT32, INT64 -> generator.writeNumber((long) (Long) value);
            case DOUBLE -> generator.writeNumber((double) (Double) value);
            case BOOLEAN -> generator.writeBoolean((Boolean) value);
            case OBJECT -> throw new IllegalStateException("not a scalar");
        }
    }
}
