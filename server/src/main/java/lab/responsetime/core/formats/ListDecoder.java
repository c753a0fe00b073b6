package lab.responsetime.core.formats;

import java.io.IOException;
import java.io.InputStream;
import lab.responsetime.core.ingest.BodyRefusedException;
import lab.responsetime.core.ingest.InvalidBodyException;
import lab.responsetime.core.ingest.ObjectValidator;

/**
 * Reads a list of objects in one interchange format, exactly the shape the format's {@link Encoder}
 * writes for a GET, streaming: the format library's parser hands over one token at a time and each
 * field's value goes to the {@link ObjectValidator} as it is read. No tree, no objects are built;
 * nothing is kept.
 */
public interface ListDecoder {
    /**
     * Reads the whole list from {@code in}, to the end of the body.
     *
     * @return the format the body turned out to be in (for XML, with elements or with attributes)
     * @throws InvalidBodyException for a malformed body or an object that breaks a rule: the first
     *     one
     * @throws BodyRefusedException whatever {@code in} or {@code validator} refused
     */
    Format decode(InputStream in, ObjectValidator validator) throws IOException;
}
