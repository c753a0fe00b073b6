package lab.responsetime.core.catalogue;

import java.util.List;

/**
 * The source study's scenarios (docs/method.md#scenarios): what one timed iteration in the browser
 * does. The browser runs them ({@code client/scenarios.js}); the server only answers their
 * requests, but defines them here so that every layer reads them from one catalogue.
 */
public enum Scenario {
    NO_COMPUTATION(
            1,
            "No computation",
            "request N objects and decode them",
            Family.FORMATS,
            Side.NONE,
            1,
            0,
            false),
    SERVER_COMPUTES(
            2,
            "Computation on server",
            "request N objects sorted by the server, decode them",
            Family.SIDE,
            Side.SERVER,
            1,
            1,
            false),
    CLIENT_COMPUTES(
            3,
            "Computation on client",
            "request N objects, decode them, sort them in the browser",
            Family.SIDE,
            Side.CLIENT,
            1,
            1,
            false),
    NO_CACHING_SERVER_COMPUTES(
            4,
            "No caching, server computes (2 requests)",
            "request N objects sorted by the server and decode them, twice",
            Family.CACHING,
            Side.SERVER,
            2,
            2,
            false),
    CACHING_CLIENT_COMPUTES(
            5,
            "Caching, client computes twice",
            "request N objects, decode them, sort them in the browser, sort the cached copy again",
            Family.CACHING,
            Side.CLIENT,
            1,
            2,
            true);

    /** Where the sorting happens. */
    public enum Side {
        NONE,
        SERVER,
        CLIENT
    }

    /**
     * The question a scenario's cells answer together, compared in one group: formats and
     * compressions with nothing computed; whether the server or the client should sort; whether a
     * client that keeps its data beats asking the server again. Within a family, scenarios are
     * compared in the order {@link #compared()} lists them (the first's time over the second's).
     */
    public enum Family {
        FORMATS(
                "formats",
                "Formats and compressions, nothing computed",
                List.of("format", "decoder", "compression", "level")),
        SIDE(
                "side",
                "Where the sorting runs: the client against the server",
                List.of("format", "decoder", "compression", "level", "scenario")),
        CACHING(
                "caching",
                "Sorting the cached copy against a second server request",
                List.of("scenario"));

        private final String id;
        private final String label;
        private final List<String> varies;

        Family(String id, String label, List<String> varies) {
            this.id = id;
            this.label = label;
            this.varies = varies;
        }

        /**
         * The dimensions of a cell that differ between the cells of one of the family's groups
         * (format, decoder, compression, level, scenario); every other one is the same in a group.
         */
        public List<String> varies() {
            return varies;
        }

        /**
         * Its name in group ids and comparison records: {@code formats}, {@code side}, {@code
         * caching}.
         */
        public String id() {
            return id;
        }

        public String label() {
            return label;
        }

        /**
         * The family's scenarios in the order their comparison reads: client before server (the
         * client's time over the server's), the second request before the cached client.
         */
        public List<Scenario> compared() {
            return switch (this) {
                case FORMATS -> List.of(NO_COMPUTATION);
                case SIDE -> List.of(CLIENT_COMPUTES, SERVER_COMPUTES);
                case CACHING -> List.of(NO_CACHING_SERVER_COMPUTES, CACHING_CLIENT_COMPUTES);
            };
        }
    }

    private final int number;
    private final String label;
    private final String timed;
    private final Family family;
    private final Side computes;
    private final int requests;
    private final int computations;
    private final boolean cached;

    Scenario(
            int number,
            String label,
            String timed,
            Family family,
            Side computes,
            int requests,
            int computations,
            boolean cached) {
        this.number = number;
        this.label = label;
        this.timed = timed;
        this.family = family;
        this.computes = computes;
        this.requests = requests;
        this.computations = computations;
        this.cached = cached;
    }

    public int number() {
        return number;
    }

    public String label() {
        return label;
    }

    /** What one timed iteration does, in words. */
    public String timed() {
        return timed;
    }

    public Family family() {
        return family;
    }

    /** Whether the second computation runs on the data the client kept (scenario 5). */
    public boolean cached() {
        return cached;
    }

    public Side computes() {
        return computes;
    }

    /** Requests per iteration. */
    public int requests() {
        return requests;
    }

    /** How often CMk runs per iteration (0: the scenario takes CM0 only; otherwise CM1–CM5). */
    public int computations() {
        return computations;
    }
}
