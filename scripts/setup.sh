#!/usr/bin/env bash
# Installs what the study and the tests need beyond the base toolchain, idempotently: the Node
# packages (npm ci), Maven's plugins and libraries, Debian's Chromium and Firefox ESR, Python's
# cbor2, msgpack and protobuf with protoc (the datasets' independent check), the HTTP/3
# connector's native QUIC library (scripts/quiche.sh), and the load testbed's
# generators (Debian's wrk; Vegeta, built with Go into tools/bin). Sourced by
# study.sh and test.sh; fails with a clear message where it cannot.
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
  bash scripts/build-mvn.sh -q exec:help -Ddetail=false >/dev/null \
    && bash scripts/build-mvn.sh -q -f server/pom.xml process-classes exec:help -Ddetail=false >/dev/null \
    || fail "Maven could not fetch the server's plugins and dependencies"
  touch server/target/.maven-resolved
fi

# The study server's TLS key and certificate for localhost (tls/, never committed).
bash scripts/tls-key.sh

# Debian's packages: Chromium (Playwright cannot download browsers here), wrk (the load testbed's
# load generator) and nginx-light (the load benchmark's static-file baseline). As root they are
# installed when missing; otherwise what is missing is named (the testbed and its benchmark need
# root anyway, for network namespaces).
chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
missing=()
[ -x "$chromium" ] || missing+=(chromium)
# Firefox ESR: BROWSER=firefox runs in it, and the page's end-to-end tests run in both engines;
# nft maps localhost to the server's namespace for it under SHAPING=netns.
firefox=${FIREFOX_PATH:-/usr/bin/firefox-esr}
[ -x "$firefox" ] || missing+=(firefox-esr)
command -v nft >/dev/null || missing+=(nftables)
# certutil puts the study server's TLS certificate into each Firefox launch profile (docs/protocols.md).
command -v certutil >/dev/null || missing+=(libnss3-tools)
command -v wrk >/dev/null || missing+=(wrk)
[ -x /usr/sbin/nginx ] || missing+=(nginx-light)
# The independent check of a brought dataset (experiments/datasets/check_dataset.py, run by the
# tests): Debian's Python (/usr/bin/python3, whatever python3 comes first on PATH) with cbor2,
# msgpack and protobuf, and protoc for the dataset's .proto.
/usr/bin/python3 -c 'import cbor2' 2>/dev/null || missing+=(python3-cbor2)
/usr/bin/python3 -c 'import msgpack' 2>/dev/null || missing+=(python3-msgpack)
/usr/bin/python3 -c 'import google.protobuf' 2>/dev/null || missing+=(python3-protobuf)
command -v protoc >/dev/null || missing+=(protobuf-compiler)
# What scripts/quiche.sh builds the HTTP/3 connector's native library with (below), when it has
# yet to (none built, or built of another version or with other changes): cmake, a C++ compiler,
# and libclang with its headers (bindgen, for quiche's BoringSSL).
if ! bash scripts/quiche.sh --up-to-date && command -v dpkg >/dev/null; then
  for package in cmake g++ libclang1-14 libclang-common-14-dev; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
  done
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's ${missing[*]}..."
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; } \
      || fail "apt-get could not install ${missing[*]}"
    # Debian starts nginx when it installs it; the benchmark starts its own.
    if [[ " ${missing[*]} " == *" nginx-light "* ]]; then
      { command -v service >/dev/null && service nginx stop >/dev/null 2>&1; } || pkill -x nginx 2>/dev/null || true
    fi
  elif [ ! -x "$chromium" ]; then
    fail "Chromium is needed at $chromium: install Debian's chromium package (as root: apt-get install chromium) or set CHROMIUM_PATH"
  elif [ "${BROWSER:-chromium}" = firefox ] && [ ! -x "$firefox" ]; then
    fail "Firefox is needed at $firefox: install Debian's firefox-esr package (as root: apt-get install firefox-esr) or set FIREFOX_PATH"
  else
    echo "note: ${missing[*]} not installed (as root: apt-get install ${missing[*]}); the load testbed (npm run load) and its benchmark need wrk and nginx-light, the tests' Firefox runs firefox-esr and trusts the TLS certificate with libnss3-tools' certutil, the datasets' independent check needs the python3 packages and protoc" >&2
  fi
fi

# The HTTP/3 connector's native QUIC library (quiche, built with cargo into tools/quiche, not
# committed); without it the server serves no h3 and says why.
bash scripts/quiche.sh

# Vegeta (the load testbed's constant-rate generator): `go install` of a pinned version into
# tools/bin (not committed), when missing or another version. Without Go, or without the module
# proxy, the rest still works and the message says what the constant-rate mode needs.
vegeta_version=v12.13.0
vegeta=tools/bin/vegeta
if [ ! -x "$vegeta" ] || [ "$(cat tools/bin/vegeta.version 2>/dev/null)" != "$vegeta_version" ]; then
  if command -v go >/dev/null; then
    echo "Installing Vegeta $vegeta_version (go install) into tools/bin..."
    if GOBIN="$PWD/tools/bin" GOFLAGS=-mod=mod go install "github.com/tsenart/vegeta/v12@$vegeta_version" >/dev/null 2>&1; then
      echo "$vegeta_version" > tools/bin/vegeta.version
    else
      echo "note: go install of Vegeta $vegeta_version failed; the load testbed's constant-rate mode (plans with \"open_loop\") needs it: GOBIN=\$PWD/tools/bin go install github.com/tsenart/vegeta/v12@$vegeta_version" >&2
    fi
  else
    echo "note: Vegeta not installed (it is built with Go, and go is not on PATH); the load testbed's constant-rate mode (plans with \"open_loop\") needs it" >&2
  fi
fi
