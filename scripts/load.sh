#!/usr/bin/env bash
# `npm run load`: sets up what is missing (wrk among it), then runs the load testbed
# (experiments/load-testbed/run.js; PLAN, RUN_DIR, SEED, LOAD_PORT, SERVER_OPTS pass through) and
# writes its report into the run directory.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec node experiments/load-testbed/run.js "$@"
