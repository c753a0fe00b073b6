#!/usr/bin/env bash
# The style checks (`npm run lint`, part of `npm test`): the formatters in check mode and the
# linters, for JavaScript (Prettier, ESLint) and Java (google-java-format through Spotless,
# Checkstyle). `npm run format` rewrites what the formatters would change.
# Ends with one line: "lint: N passed, M failed" (one per check).
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0
failed=0
check() {
  local name=$1
  shift
  echo "== $name"
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "lint: $name failed"; fi
}
check "prettier (JavaScript layout)" npx prettier --check --log-level warn "**/*.{js,mjs}"
check "eslint (JavaScript)" npx eslint --max-warnings 0 .
check "google-java-format (Java layout)" bash scripts/build-mvn.sh -q -f server/pom.xml spotless:check
check "checkstyle (Java)" bash scripts/build-mvn.sh -q -f server/pom.xml checkstyle:check
echo
echo "lint: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
