package lab.responsetime.resources;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import lab.responsetime.core.catalogue.Catalogue;

/**
 * {@code GET /api/catalogue}: the formats (with their browser decoders), compressions, object
 * kinds, computation models and scenarios this server offers ({@link Catalogue}).
 */
@Path("/catalogue")
@Produces(MediaType.APPLICATION_JSON)
public final class CatalogueResource {
    private static final Map<String, Object> CATALOGUE = Catalogue.describe();

    @GET
    public Map<String, Object> catalogue() {
        return CATALOGUE;
    }
}
