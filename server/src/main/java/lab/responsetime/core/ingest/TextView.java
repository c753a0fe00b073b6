package lab.responsetime.core.ingest;

import java.nio.charset.StandardCharsets;

/**
 * A reusable window onto a parser's characters, or onto bytes read as Latin-1, so that a value can
 * be checked without first being copied into a String. Valid values are ASCII, where both views
 * agree; any other byte reads as a character no rule allows. {@link #toString()} decodes bytes as
 * UTF-8, for error messages.
 */
public final class TextView implements CharSequence {
    private char[] chars;
    private byte[] bytes;
    private int offset;
    private int length;

    public TextView chars(char[] chars, int offset, int length) {
        this.chars = chars;
        this.bytes = null;
        this.offset = offset;
        this.length = length;
        return this;
    }

    public TextView bytes(byte[] bytes, int offset, int length) {
        this.bytes = bytes;
        this.chars = null;
        this.offset = offset;
        this.length = length;
        return this;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException(index);
        }
        return chars != null ? chars[offset + index] : (char) (bytes[offset + index] & 0xFF);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return toString().subSequence(start, end);
    }

    @Override
    public String toString() {
        return chars != null
                ? new String(chars, offset, length)
                : new String(bytes, offset, length, StandardCharsets.UTF_8);
    }
}
