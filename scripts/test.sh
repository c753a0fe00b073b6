#!/usr/bin/env bash
# The README's test command (`npm test`): installs what the tests need, idempotently, then runs
# every test — Java (unit and integration, booting the real server), Node (the client's modules
# against vectors the Java tests write), and the browser end to end in Debian's Chromium — and
# ends with one line: "tests: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."

fail() { echo "error: $*" >&2; exit 1; }

command -v java >/dev/null || fail "Java 17 is needed (java not found on PATH)"
command -v mvn >/dev/null || fail "Maven 3.8 or newer is needed (mvn not found on PATH)"
command -v node >/dev/null || fail "Node.js 20 or newer is needed (node not found on PATH)"
java_major=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
[ "${java_major:-0}" -ge 17 ] || fail "Java 17 or newer is needed, found ${java_major:-unknown}"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || fail "Node.js 20 or newer is needed, found $(node --version)"

# Node packages: install when node_modules is missing or older than the lock file.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund || fail "npm ci could not install the Node packages"
fi

# Chromium for the browser tests: Debian's package (Playwright cannot download browsers here).
chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's chromium for the browser tests..."
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
      || fail "apt-get could not install chromium"
  else
    fail "Chromium is needed at $chromium for the browser tests: install Debian's chromium package (as root: apt-get install chromium) or set CHROMIUM_PATH"
  fi
fi

mkdir -p test-results
status=0
passed=0
failed=0

# 1. Java: unit tests and the integration tests that boot the real server (JUnit 5, Surefire).
#    They also write the vectors the Node tests read (server/target/client-fixtures).
mvn -B -ntp verify || status=1
for report in server/target/surefire-reports/TEST-*.xml; do
  [ -f "$report" ] || continue
  line=$(grep -m1 '<testsuite ' "$report")
  attr() { sed -E "s/.* $1=\"([0-9]+)\".*/\1/" <<<"$line"; }
  broken=$(( $(attr failures) + $(attr errors) ))
  passed=$(( passed + $(attr tests) - broken - $(attr skipped) )); failed=$(( failed + broken ))
done

# 2. Node: the client's codecs, sorts, statistics and runner (node's test runner).
node --test client/tests/ 2>&1 | tee test-results/node.tap || status=1
passed=$(( passed + $(sed -n 's/^# pass //p' test-results/node.tap | tail -1) ))
failed=$(( failed + $(sed -n 's/^# fail //p' test-results/node.tap | tail -1) ))

# 3. Browser: the client page in Chromium against the real server (Playwright).
rm -f test-results/e2e.json
PLAYWRIGHT_JSON_OUTPUT_NAME="$PWD/test-results/e2e.json" npx playwright test -c client --reporter=list,json || status=1
if [ -f test-results/e2e.json ]; then
  read -r e2e_passed e2e_failed < <(node -e '
    const s = JSON.parse(require("fs").readFileSync("test-results/e2e.json", "utf8")).stats;
    console.log(s.expected + s.flaky, s.unexpected)')
  passed=$(( passed + e2e_passed )); failed=$(( failed + e2e_failed ))
fi

[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1   # a runner that failed before its tests counts too
echo "tests: $passed passed, $failed failed"
exit "$status"
