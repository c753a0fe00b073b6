"""Reference values for client/comparison.js's round bootstrap, from an independent implementation.

Writes common/reference/round-bootstrap.json: for a few designed data sets (cells measured in
rounds), the ratio of pooled medians and its 95 % percentile CI computed with SciPy's own
bootstrap (scipy.stats.bootstrap, method="percentile") resampling whole rounds, and NumPy's
median. The Node test compares the lab's estimator with these within Monte-Carlo error.

Not part of the test command (it needs NumPy and SciPy); regenerate with
    pip install numpy scipy && python3 common/reference/round_bootstrap.py
"""
import json
import pathlib

import numpy as np
import scipy
from scipy import stats

RESAMPLES = 20_000


def dataset(name, rounds, per_round, base_a, base_b, drift, noise, seed):
    """Two cells measured in `rounds` rounds of `per_round` iterations; both share each round's drift."""
    rng = np.random.default_rng(seed)
    level = 1 + drift * rng.standard_normal(rounds)
    a = [[float(base_a * level[r] * (1 + noise * rng.standard_normal())) for _ in range(per_round)] for r in range(rounds)]
    b = [[float(base_b * level[r] * (1 + noise * rng.standard_normal())) for _ in range(per_round)] for r in range(rounds)]
    return {"name": name, "a": a, "b": b}


def reference(data):
    a = data["a"]
    b = data["b"]

    def statistic(indices):
        drawn = np.asarray(indices, dtype=int)
        pooled_a = np.concatenate([a[i] for i in drawn])
        pooled_b = np.concatenate([b[i] for i in drawn])
        return np.median(pooled_a) / np.median(pooled_b)

    result = stats.bootstrap((np.arange(len(a)),), statistic, vectorized=False, paired=False,
                             n_resamples=RESAMPLES, confidence_level=0.95, method="percentile",
                             random_state=np.random.default_rng(20261121))
    ratio = float(np.median(np.concatenate(a)) / np.median(np.concatenate(b)))
    return {**data, "ratio": ratio, "ci_low": float(result.confidence_interval.low),
            "ci_high": float(result.confidence_interval.high)}


def main():
    sets = [
        dataset("clear difference, strong drift", 12, 3, 10.0, 8.0, 0.25, 0.03, 1),
        dataset("near tie, drift", 20, 3, 5.0, 5.05, 0.15, 0.04, 2),
        dataset("noisy, few rounds", 6, 5, 3.0, 2.7, 0.05, 0.2, 3),
        dataset("one iteration per round", 30, 1, 40.0, 42.0, 0.1, 0.05, 4),
    ]
    out = {"generator": f"scipy {scipy.__version__}, numpy {np.__version__}", "resamples": RESAMPLES,
           "method": "scipy.stats.bootstrap over round indices, percentile, ratio of pooled medians",
           "sets": [reference(s) for s in sets]}
    path = pathlib.Path(__file__).with_name("round-bootstrap.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
