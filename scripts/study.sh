#!/usr/bin/env bash
# The README's run command (`npm run study`): sets up what is missing, then runs the study with
# `npx playwright test` (PLAN, NETWORK, SHAPING, BASE_URL, RUN_DIR and Playwright's own
# arguments such as --shard=1/2 pass through).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec npx playwright test "$@"
