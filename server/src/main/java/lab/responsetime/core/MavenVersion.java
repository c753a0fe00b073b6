package lab.responsetime.core;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * A library's version as its jar states it, in {@code
 * META-INF/maven/<group>/<artifact>/pom.properties}.
 */
public final class MavenVersion {
    private MavenVersion() {}

    /**
     * The version of the jar on the class path with these Maven coordinates, or "unknown".
     *
     * @param coordinates group and artifact, as {@code io.dropwizard/dropwizard-core}
     */
    public static String of(String coordinates) {
        String resource = "META-INF/maven/" + coordinates + "/pom.properties";
        try (InputStream in = MavenVersion.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
