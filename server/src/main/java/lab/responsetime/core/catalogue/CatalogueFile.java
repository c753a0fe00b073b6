package lab.responsetime.core.catalogue;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the catalogue as {@code common/catalogue-data.js}, the copy the page and the Node tools
 * import (an ES module, so that both load it without JSON-module support); run by {@code npm run
 * catalogue}. {@code CatalogueFileTest} fails while the copy is out of date.
 */
public final class CatalogueFile {
    private CatalogueFile() {}

    private static final String HEADER =
            "// The server's catalogue (lab.responsetime.core.catalogue.Catalogue), written by\n"
                    + "// `npm run catalogue`. Do not edit: change the server's enums and run it"
                    + " again.\n";

    /** The file's exact text: a header, then the catalogue as two-space indented JSON. */
    public static String text() throws IOException {
        DefaultPrettyPrinter printer =
                new DefaultPrettyPrinter()
                        .withObjectIndenter(new DefaultIndenter("  ", "\n"))
                        .withArrayIndenter(new DefaultIndenter("  ", "\n"))
                        .withoutSpacesInObjectEntries();
        return HEADER
                + "export default "
                + JsonMapper.builder()
                        .build()
                        .writer(printer)
                        .writeValueAsString(Catalogue.describe())
                + ";\n";
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: CatalogueFile <path of common/catalogue-data.js>");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        Files.writeString(file, text());
        System.out.println("wrote " + file.toAbsolutePath());
    }
}
