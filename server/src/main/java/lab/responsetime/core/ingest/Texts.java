package lab.responsetime.core.ingest;

/** Numbers read from text as the text formats write them, and the quoting of values in messages. */
public final class Texts {
    /** Characters of a value shown in an error message; the rest is summarized by its length. */
    private static final int QUOTED_CHARS = 40;

    /**
     * Digits of a whole number read from text: more cannot be within any rule (the largest is
     * 10,000,000).
     */
    private static final int MAX_DIGITS = 10;

    private Texts() {}

    /**
     * A whole number written as text, {@code 0} or digits without a leading zero; -1 for any other
     * text (a sign, a point, spaces, more than ten digits).
     */
    static long naturalNumber(CharSequence text) {
        return naturalNumber(text, 0, text.length());
    }

    /**
     * {@link #naturalNumber(CharSequence)} of the characters from {@code start} (inclusive) to
     * {@code end}.
     */
    private static long naturalNumber(CharSequence text, int start, int end) {
        int length = end - start;
        if (length == 0 || length > MAX_DIGITS || length > 1 && text.charAt(start) == '0') {
            return -1;
        }
        long value = 0;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /**
     * A number with at most two decimals written as text ({@code 12}, {@code 12.5}, {@code 12.50}),
     * in hundredths; -1 for any other text (a sign, an exponent, a third decimal, a leading zero).
     */
    static long cents(CharSequence text) {
        int length = text.length();
        int point = -1;
        for (int i = 0; i < length; i++) {
            if (text.charAt(i) == '.') {
                point = i;
                break;
            }
        }
        int wholeDigits = point < 0 ? length : point;
        int decimals = point < 0 ? 0 : length - point - 1;
        if (point == 0 || point >= 0 && (decimals < 1 || decimals > 2)) {
            return -1;
        }
        long whole = naturalNumber(text, 0, wholeDigits);
        if (whole < 0) {
            return -1;
        }
        long hundredths = 0;
        for (int i = 0; i < 2; i++) {
            hundredths *= 10;
            if (i < decimals) {
                char c = text.charAt(point + 1 + i);
                if (c < '0' || c > '9') {
                    return -1;
                }
                hundredths += c - '0';
            }
        }
        return whole * 100 + hundredths;
    }

    /**
     * {@code value} in double quotes for an error message, with quotes, backslashes and control
     * characters escaped, and cut after 40 characters (saying how many there were).
     */
    public static String quote(CharSequence value) {
        int length = value.length();
        StringBuilder quoted = new StringBuilder(Math.min(length, QUOTED_CHARS) + 24).append('"');
        for (int i = 0; i < Math.min(length, QUOTED_CHARS); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                quoted.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7F) {
                quoted.append(String.format("\\u%04x", (int) c));
            } else {
                quoted.append(c);
            }
        }
        quoted.append(length > QUOTED_CHARS ? "…\" (" + length + " characters)" : "\"");
        return quoted.toString();
    }
}
