package lab.responsetime.core.catalogue;

/**
 * The source study's scenarios (SPEC §5): what one timed iteration in the browser does. The browser
 * runs them ({@code client/scenarios.js}); the server only answers their requests, but defines them
 * here so that every layer reads them from one catalogue.
 */
public enum Scenario {
    NO_COMPUTATION(1, "No computation", Side.NONE, 1, 0),
    SERVER_COMPUTES(2, "Computation on server", Side.SERVER, 1, 1),
    CLIENT_COMPUTES(3, "Computation on client", Side.CLIENT, 1, 1),
    NO_CACHING_SERVER_COMPUTES(4, "No caching, server computes (2 requests)", Side.SERVER, 2, 2),
    CACHING_CLIENT_COMPUTES(5, "Caching, client computes twice", Side.CLIENT, 1, 2);

    /** Where the sorting happens. */
    public enum Side {
        NONE,
        SERVER,
        CLIENT
    }

    private final int number;
    private final String label;
    private final Side computes;
    private final int requests;
    private final int computations;

    Scenario(int number, String label, Side computes, int requests, int computations) {
        this.number = number;
        this.label = label;
        this.computes = computes;
        this.requests = requests;
        this.computations = computations;
    }

    public int number() {
        return number;
    }

    public String label() {
        return label;
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
