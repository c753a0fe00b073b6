#!/usr/bin/env bash
# The README's test command (`npm test`): installs what the tests need, idempotently, then runs
# the style checks (formatters and linters) and every test — Java (unit and integration, booting
# the real server), Node (the client's modules
# against vectors the Java tests write; the study's plans, results and a smoke run), and the
# browser end to end in Debian's Chromium — and
# ends with one line: "tests: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."

# Each phase's wall time, said at the end and kept in test-results/durations.txt.
durations=()
mark=$SECONDS
phase_took() { durations+=("$1 $((SECONDS - mark)) s"); mark=$SECONDS; }

bash scripts/setup.sh || exit 1
phase_took set-up

mkdir -p test-results
status=0
passed=0
failed=0

# 0. Style: Prettier, ESLint, google-java-format and Checkstyle, one count each.
bash scripts/lint.sh 2>&1 | tee test-results/lint.txt || status=1
lint_counts=$(sed -n 's/.*lint: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' test-results/lint.txt | tail -1)
read -r lint_passed lint_failed <<<"${lint_counts:-0 1}"
passed=$(( passed + lint_passed )); failed=$(( failed + lint_failed ))
phase_took style

# 1. Java: unit tests and the integration tests that boot the real server (JUnit 5, Surefire).
#    They also write the vectors the Node tests read (server/target/client-fixtures).
bash scripts/build-mvn.sh verify || status=1
phase_took Java
for report in server/target/surefire-reports/TEST-*.xml; do
  [ -f "$report" ] || continue
  line=$(grep -m1 '<testsuite ' "$report")
  attr() { sed -E "s/.* $1=\"([0-9]+)\".*/\1/" <<<"$line"; }
  broken=$(( $(attr failures) + $(attr errors) ))
  passed=$(( passed + $(attr tests) - broken - $(attr skipped) )); failed=$(( failed + broken ))
done

# 2. Node: the client's codecs, sorts, statistics and runner; the study's plans and run
#    directories; the smoke plan run end to end with npx playwright test, then resumed; and the
#    report's statistics and answers on a run whose answers are known. Two files at a time, except
#    the files whose checks hold a measured time or rate to a bound that load on the other core
#    could break (the smoke plan's calibrated 10 Mbit/s, the netns runs' RTT and rate): they run
#    after, one at a time, and the load testbed's tests (closed loop, constant rate, HTTP/2 at a
#    high rate) last, alone, one after the other. Of the files two at a time, the study runs
#    (study.*.test.js, each a minute or more) start first, and the quick files fill the other
#    core around them.
timed=(experiments/tests/study.smoke.test.js experiments/tests/study.netns.test.js)
testbeds=(experiments/tests/load-testbed.netns.test.js experiments/tests/load-testbed-open-loop.netns.test.js
  experiments/tests/load-testbed-h2-rate.netns.test.js)
mapfile -t node_tests < <(ls experiments/tests/study.*.test.js; ls common/tests/*.test.js client/tests/*.test.js \
  experiments/tests/*.test.js analysis/tests/*.test.js | grep -v '/study\.')
mapfile -t node_tests < <(printf '%s\n' "${node_tests[@]}" | grep -vxF -f <(printf '%s\n' "${timed[@]}" "${testbeds[@]}"))
node --test --test-concurrency=2 "${node_tests[@]}" 2>&1 | tee test-results/node.tap || status=1
phase_took 'Node, two at a time'
node --test --test-concurrency=1 "${timed[@]}" 2>&1 | tee test-results/node-timed.tap || status=1
phase_took 'Node, timed'
node --test --test-concurrency=1 "${testbeds[@]}" 2>&1 | tee test-results/node-testbed.tap || status=1
phase_took 'load testbed'
for tap in test-results/node.tap test-results/node-timed.tap test-results/node-testbed.tap; do
  tap_passed=$(sed -n 's/^# pass //p' "$tap" | tail -1); tap_failed=$(sed -n 's/^# fail //p' "$tap" | tail -1)
  passed=$(( passed + ${tap_passed:-0} )); failed=$(( failed + ${tap_failed:-0} ))
done

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
phase_took browser
durations+=("in all $SECONDS s")
(IFS=','; echo "time:${durations[*]/#/ }") | tee test-results/durations.txt
echo "tests: $passed passed, $failed failed"
exit "$status"
