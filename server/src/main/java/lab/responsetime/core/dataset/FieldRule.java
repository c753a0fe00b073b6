package lab.responsetime.core.dataset;

import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * What one field of docs/method.md#datasets allows, stated once for both sides: the generator draws
 * a value with {@link #draw}, the collector checks one with {@link #validString}, {@link
 * #validInteger} or {@link #validCents} (whichever its {@link #type()} takes; the others refuse
 * everything), and error messages say {@link #words()}.
 *
 * <p>The checks take primitives and {@link CharSequence}s so that the collector checks values as
 * its parsers hand them over, without building objects.
 */
public sealed interface FieldRule {
    /** The 62 characters random strings are made of, in the order draws index them. */
    String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    FieldType type();

    /** What the field allows, in words: {@code an integer from 0 to 1000}. */
    String words();

    /**
     * The next value from {@code random}: a String, Integer, Float or Boolean, after the values of
     * the fields before it in the table, which {@code drawn} gives by field name.
     */
    Object draw(Random random, Function<String, Object> drawn);

    /**
     * The longest text a STRING rule allows (a decoder refuses a longer one unread); 0 otherwise.
     */
    default int maxLength() {
        return 0;
    }

    default boolean validString(CharSequence value) {
        return false;
    }

    default boolean validInteger(long value) {
        return false;
    }

    /** A DECIMAL value in hundredths. */
    default boolean validCents(long cents) {
        return false;
    }

    /** {@code min}–{@code max} characters from 0-9, A-Z, a-z, the length uniform. */
    record Alphanumeric(int min, int max) implements FieldRule {
        @Override
        public FieldType type() {
            return FieldType.STRING;
        }

        @Override
        public String words() {
            return "a string of " + min + "–" + max + " characters from 0-9, A-Z, a-z";
        }

        @Override
        public Object draw(Random random, Function<String, Object> drawn) {
            return randomString(random, min, max);
        }

        @Override
        public int maxLength() {
            return max;
        }

        @Override
        public boolean validString(CharSequence value) {
            int length = value.length();
            return length >= min && length <= max && alphanumeric(value, 0, length);
        }
    }

    /** A fixed prefix followed by exactly {@code length} characters from 0-9, A-Z, a-z. */
    record PrefixedAlphanumeric(String prefix, int length) implements FieldRule {
        @Override
        public FieldType type() {
            return FieldType.STRING;
        }

        @Override
        public String words() {
            return "\"" + prefix + "\" followed by " + length + " characters from 0-9, A-Z, a-z";
        }

        @Override
        public Object draw(Random random, Function<String, Object> drawn) {
            return prefix + randomString(random, length, length);
        }

        @Override
        public int maxLength() {
            return prefix.length() + length;
        }

        @Override
        public boolean validString(CharSequence value) {
            return value.length() == maxLength()
                    && startsWith(value, prefix)
                    && alphanumeric(value, prefix.length(), maxLength());
        }
    }

    /**
     * A version-4, IETF-variant UUID as {@link UUID#toString()} writes it (lowercase, {@code
     * xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx}), its random bits from the seeded generator,
     * followed by {@code suffix}.
     */
    record UuidWithSuffix(String suffix) implements FieldRule {
        /** {@code UUID.toString()}: 8-4-4-4-12 hex digits. */
        private static final int UUID_LENGTH = 36;

        @Override
        public FieldType type() {
            return FieldType.STRING;
        }

        @Override
        public String words() {
            return "a string of "
                    + maxLength()
                    + " characters: a lowercase version-4 UUID followed by \""
                    + suffix
                    + "\"";
        }

        @Override
        public Object draw(Random random, Function<String, Object> drawn) {
            long most = random.nextLong();
            long least = random.nextLong();
            most = (most & ~0xF000L) | 0x4000L; // version 4
            least = (least & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L; // IETF variant
            return new UUID(most, least) + suffix;
        }

        @Override
        public int maxLength() {
            return UUID_LENGTH + suffix.length();
        }

        @Override
        public boolean validString(CharSequence value) {
            if (value.length() != maxLength()) {
                return false;
            }
            for (int i = 0; i < UUID_LENGTH; i++) {
                char c = value.charAt(i);
                boolean valid =
                        switch (i) {
                            case 8, 13, 18, 23 -> c == '-';
                            case 14 -> c == '4';
                            case 19 -> c == '8' || c == '9' || c == 'a' || c == 'b';
                            default -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f';
                        };
                if (!valid) {
                    return false;
                }
            }
            for (int i = 0; i < suffix.length(); i++) {
                if (value.charAt(UUID_LENGTH + i) != suffix.charAt(i)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** One of {@code choices}, uniformly. */
    record OneOfStrings(List<String> choices) implements FieldRule {
        @Override
        public FieldType type() {
            return FieldType.STRING;
        }

        @Override
        public String words() {
            return "one of " + String.join(", ", choices);
        }

        @Override
        public Object draw(Random random, Function<String, Object> drawn) {
            return choices.get(random.nextInt(choices.size()));
        }

        @Override
        public int maxLength() {
            return choices.stream().mapToInt(String::length).max().orElse(0);
        }

        @Override
        public boolean validString(CharSequence value) {
            for (String choice : choices) {
                if (choice.contentEquals(value)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A whole number from {@code min} to {@code max}, uniformly. */
    record IntegerRange(int min, int max) implements FieldRule {
        @Override
        public FieldType type() {
            return FieldType.INTEGER;
        }

        @Override
        public String words() {
            return "an integer from " + min + " to " + max;
        }

        @Override
        public Object draw(Random random, Function<String, Object> drawn) {
            return min + random.nextInt(max - min + 1);
        }

        @Override
        public boolean validInteger(long value) {
            return value >= min && value <= max;
        }
    }

    /** One of {@code choices}, uniformly. */
    record OneOfIntegers(List<Integer> choices) implements FieldRule {
        @Override
        public FieldType type() {
            return FieldType.INTEGER;
        }

        @Override
        public String words() {
            return "one of "
                    + choices.stream().map(String::valueOf).collect(Collectors.joining(", "));
        }

        @Override
        public Object draw(Random random, Function<String, Object> drawn) {
            return choices.get(random.nextInt(choices.size()));
        }

        @Override
        public boolean validInteger(long value) {
            return position(choices, value) >= 0;
        }
    }

    /**
     * One of {@code choices}, the one at the position of the {@code partner} field's value in
     * {@code partnerChoices}: not drawn, but paired with what the partner drew (Video's width with
     * its height, docs/method.md#datasets). Alone a value must be one of the choices; whether it
     * pairs is checked once the object is whole ({@link #pairs}).
     */
    record PairedInteger(String partner, List<Integer> partnerChoices, List<Integer> choices)
            implements FieldRule {
        public PairedInteger {
            if (partnerChoices.size() != choices.size()) {
                throw new IllegalArgumentException("one choice per partner choice");
            }
        }

        @Override
        public FieldType type() {
            return FieldType.INTEGER;
        }

        @Override
        public String words() {
            return new OneOfIntegers(choices).words()
                    + ", paired with the "
                    + partner
                    + " as "
                    + pairs();
        }

        /** The pairs for messages: {@code 256⇒144, 426⇒240, …}. */
        public String pairs() {
            return IntStream.range(0, choices.size())
                    .mapToObj(i -> partnerChoices.get(i) + "⇒" + choices.get(i))
                    .collect(Collectors.joining(", "));
        }

        @Override
        public Object draw(Random random, Function<String, Object> drawn) {
            return choices.get(partnerChoices.indexOf(drawn.apply(partner)));
        }

        @Override
        public boolean validInteger(long value) {
            return position(choices, value) >= 0;
        }

        /** Whether {@code value} is the partner's pair; both are valid alone. */
        public boolean pairs(long partnerValue, long value) {
            return position(partnerChoices, partnerValue) == position(choices, value);
        }

        /** The value that pairs with {@code partnerValue}, a valid partner value. */
        public int pairOf(long partnerValue) {
            return choices.get(position(partnerChoices, partnerValue));
        }
    }

    /**
     * A number from 0 to {@code maxCents / 100} with at most two decimals: a float holding {@code
     * cents / 100f}, the cents uniform.
     */
    record Cents(int maxCents) implements FieldRule {
        @Override
        public FieldType type() {
            return FieldType.DECIMAL;
        }

        @Override
        public String words() {
            return "a number from 0 to " + maxCents / 100 + " with at most 2 decimals";
        }

        @Override
        public Object draw(Random random, Function<String, Object> drawn) {
            return random.nextInt(maxCents + 1) / 100f;
        }

        @Override
        public boolean validCents(long cents) {
            return cents >= 0 && cents <= maxCents;
        }
    }

    /** true or false, evenly. */
    record AnyBoolean() implements FieldRule {
        @Override
        public FieldType type() {
            return FieldType.BOOLEAN;
        }

        @Override
        public String words() {
            return "a boolean (true or false)";
        }

        @Override
        public Object draw(Random random, Function<String, Object> drawn) {
            return random.nextBoolean();
        }
    }

    /** A string of the 62 {@link #ALPHABET} characters, its length uniform in [min, max]. */
    static String randomString(Random random, int minLength, int maxLength) {
        int length = minLength + random.nextInt(maxLength - minLength + 1);
        byte[] chars = new byte[length];
        for (int i = 0; i < length; i++) {
            chars[i] = (byte) ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return new String(chars, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** Whether the characters from {@code start} (inclusive) to {@code end} are 0-9, A-Z, a-z. */
    private static boolean alphanumeric(CharSequence value, int start, int end) {
        for (int i = start; i < end; i++) {
            char c = value.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z')) {
                return false;
            }
        }
        return true;
    }

    private static boolean startsWith(CharSequence value, String prefix) {
        if (value.length() < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (value.charAt(i) != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static int position(List<Integer> values, long value) {
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) == value) {
                return i;
            }
        }
        return -1;
    }
}
