#!/usr/bin/env bash
# The README's test command (`npm test`): installs what the tests need, idempotently, then
# runs every test and ends with one summary line.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "error: $*" >&2; exit 1; }

command -v java >/dev/null || fail "Java 17 is needed (java not found on PATH)"
command -v mvn >/dev/null || fail "Maven 3.8 or newer is needed (mvn not found on PATH)"
command -v node >/dev/null || fail "Node.js 20 or newer is needed (node not found on PATH)"
java_major=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
[ "${java_major:-0}" -ge 17 ] || fail "Java 17 or newer is needed, found ${java_major:-unknown}"

# Node packages, when the project has any: install them if node_modules is missing or stale.
if [ -f package-lock.json ] && grep -q '"node_modules/' package-lock.json; then
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund
  fi
fi

status=0
# Java: unit tests and the integration tests that boot the real server (JUnit 5, Surefire).
mvn -B -ntp verify || status=$?

# One closing line over every runner's reports.
passed=0; failed=0
for report in server/target/surefire-reports/TEST-*.xml; do
  [ -f "$report" ] || continue
  line=$(grep -m1 '<testsuite ' "$report")
  tests=$(sed -E 's/.* tests="([0-9]+)".*/\1/' <<<"$line")
  broken=$(( $(sed -E 's/.* failures="([0-9]+)".*/\1/' <<<"$line") + $(sed -E 's/.* errors="([0-9]+)".*/\1/' <<<"$line") ))
  skipped=$(sed -E 's/.* skipped="([0-9]+)".*/\1/' <<<"$line")
  passed=$(( passed + tests - broken - skipped )); failed=$(( failed + broken ))
done
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1   # a build that failed before its tests counts too
echo "tests: $passed passed, $failed failed"
exit "$status"
