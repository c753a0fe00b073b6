#!/usr/bin/env bash
# The style checks (`npm run lint`, part of `npm test`): the formatters in check mode and the
# linters, for JavaScript (Prettier, ESLint) and Java (google-java-format through Spotless,
# Checkstyle). `npm run format` rewrites what the formatters would change.
# The JavaScript checks and the Java checks run side by side (each pair one after the other: a
# core each); their output is shown in order once both are done.
# Ends with one line: "lint: N passed, M failed" (one per check).
set -uo pipefail
cd "$(dirname "$0")/.."

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# One check: its output in $out/<n>.log, and a line "pass" or "fail" in $out/<n>.status.
check() {
  local n=$1 name=$2
  shift 2
  { echo "== $name"; "$@"; } >"$out/$n.log" 2>&1 && echo pass >"$out/$n.status" || echo fail >"$out/$n.status"
}
{
  check 1 "prettier (JavaScript layout)" npx prettier --check --log-level warn "**/*.{js,mjs}"
  check 2 "eslint (JavaScript)" npx eslint --max-warnings 0 .
} &
# Maven's JVM with the C1 compiler only: in a fresh clone (no caches under target/) each check
# reads every source once, and C2's compiling would take about half of its CPU.
{
  export MAVEN_OPTS="${MAVEN_OPTS:-} -XX:TieredStopAtLevel=1"
  check 3 "google-java-format (Java layout)" bash scripts/build-mvn.sh -q -f server/pom.xml spotless:check
  check 4 "checkstyle (Java)" bash scripts/build-mvn.sh -q -f server/pom.xml checkstyle:check
} &
wait

passed=0
failed=0
for n in 1 2 3 4; do
  cat "$out/$n.log"
  if [ "$(cat "$out/$n.status" 2>/dev/null)" = pass ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "lint: $(head -1 "$out/$n.log" | sed 's/^== //') failed"
  fi
done
echo
echo "lint: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
