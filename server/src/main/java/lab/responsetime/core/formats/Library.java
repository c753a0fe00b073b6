package lab.responsetime.core.formats;

import lab.responsetime.core.MavenVersion;

/**
 * A library a run records the version of ({@code /api/info}'s {@code versions}).
 *
 * @param name its key there: {@code jackson_xml}
 * @param mavenCoordinates {@code groupId/artifactId} when the version is read from its jar's {@code
 *     pom.properties}; null when the library states it otherwise
 * @param version the version in use
 */
public record Library(String name, String mavenCoordinates, String version) {
    /** A library whose jar has a {@code pom.properties}: {@code com.example/library}. */
    public static Library fromPom(String name, String mavenCoordinates) {
        return new Library(name, mavenCoordinates, MavenVersion.of(mavenCoordinates));
    }

    /** A library that states its version itself (a constant of its own). */
    public static Library stated(String name, String version) {
        return new Library(name, null, version);
    }
}
