#!/usr/bin/env bash
# Installs what the study and the tests need beyond the base toolchain, idempotently: the Node
# packages (npm ci), Maven's plugins and libraries, and Debian's Chromium. Sourced by study.sh and test.sh; fails with a clear
# message where it cannot.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

fail() { echo "error: $*" >&2; exit 1; }

command -v java >/dev/null || fail "Java 17 is needed (java not found on PATH)"
command -v mvn >/dev/null || fail "Maven 3.8 or newer is needed (mvn not found on PATH)"
command -v node >/dev/null || fail "Node.js 20 or newer is needed (node not found on PATH)"
java_major=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
[ "${java_major:-0}" -ge 17 ] || fail "Java 17 or newer is needed, found ${java_major:-unknown}"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || fail "Node.js 20 or newer is needed, found $(node --version)"

# Node packages (when node_modules is missing or older than the lock file) and the client's
# generated static protobuf code.
bash scripts/client-libraries.sh

# Maven: the plugins and libraries of the build and of `mvn exec:java`. Fetched here, with the
# network, because the study also starts the server inside network namespaces, which have none.
if [ ! -f server/target/.maven-resolved ] || [ pom.xml -nt server/target/.maven-resolved ] \
    || [ server/pom.xml -nt server/target/.maven-resolved ]; then
  mvn -B -q -ntp exec:help -Ddetail=false >/dev/null \
    && mvn -B -q -ntp -f server/pom.xml compile exec:help -Ddetail=false >/dev/null \
    || fail "Maven could not fetch the server's plugins and dependencies"
  touch server/target/.maven-resolved
fi

# Chromium: Debian's package (Playwright cannot download browsers here).
chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's chromium..."
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
      || fail "apt-get could not install chromium"
  else
    fail "Chromium is needed at $chromium: install Debian's chromium package (as root: apt-get install chromium) or set CHROMIUM_PATH"
  fi
fi
