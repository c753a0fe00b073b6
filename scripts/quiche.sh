#!/usr/bin/env bash
# Builds the native QUIC library that the server's HTTP/3 connector runs on (quiche, through Jetty's
# JNA binding: docs/protocols.md), once, into a folder that is never committed (default
# tools/quiche): libquiche.so, quiche.version and quiche.patches. Jetty's binding accepts exactly
# one quiche version, the root pom's quiche.version. quiche is built from its crate on crates.io
# with the lab's changes in scripts/quiche-patches/ applied (a fix of a quiche bug that loses the
# end of HTTP/3 answers: docs/protocols.md#http3-in-a-study); the library is built again only when
# it is missing, of another version, or built with other changes (quiche.patches holds their
# hash). A build is kept for the machine in ~/.cache/response-time-lab/ (XDG_CACHE_HOME), so that
# another clone of the same version and changes copies it instead of building again (minutes of
# BoringSSL). Maven does not serve Jetty's own build of it here (nor would that have the fix), so cargo
# builds quiche's crate with its C API (feature ffi); quiche's BoringSSL needs cmake, a C/C++
# compiler and libclang (bindgen). Without them the server serves no h3 and says why
# (/api/info's protocols_note); this script then says what is missing and exits 0, so that the
# rest of the set-up goes on.
# Usage: scripts/quiche.sh [folder, relative to the repository]
#        scripts/quiche.sh --up-to-date [folder]   exits 0 when no build is needed, 1 otherwise
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

check_only=false
if [ "${1:-}" = --up-to-date ]; then
  check_only=true
  shift
fi
dir=${1:-tools/quiche}
version=$(sed -n 's:.*<quiche.version>\(.*\)</quiche.version>.*:\1:p' pom.xml)
[ -n "$version" ] || { echo "error: pom.xml names no quiche.version" >&2; exit 1; }
patches=(scripts/quiche-patches/*.patch)
[ -f "${patches[0]}" ] || { echo "error: no scripts/quiche-patches/*.patch" >&2; exit 1; }
patches_hash=$(cat "${patches[@]}" | sha256sum | cut -c1-16)
if [ -f "$dir/libquiche.so" ] && [ "$(cat "$dir/quiche.version" 2>/dev/null)" = "$version" ] &&
  [ "$(cat "$dir/quiche.patches" 2>/dev/null)" = "$patches_hash" ]; then
  exit 0
fi
$check_only && exit 1

# Built before on this machine, for this version with these changes: copied, not built again.
cache="${XDG_CACHE_HOME:-$HOME/.cache}/response-time-lab/quiche-$version-$patches_hash"
if [ -f "$cache/libquiche.so" ]; then
  mkdir -p "$dir"
  cp "$cache/libquiche.so" "$dir/libquiche.so"
  echo "$version" > "$dir/quiche.version"
  echo "$patches_hash" > "$dir/quiche.patches"
  echo "Copied quiche $version with the lab's changes from $cache into $dir"
  exit 0
fi

note() { echo "note: no HTTP/3: $*; the server runs without its h3 connector" >&2; exit 0; }
cargo=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
[ -x "$cargo" ] || note "cargo (Rust) is needed to build quiche $version into $dir (https://rustup.rs)"
command -v cmake >/dev/null || note "cmake is needed to build quiche $version's BoringSSL (as root: apt-get install cmake)"
command -v c++ >/dev/null || note "a C++ compiler is needed to build quiche $version's BoringSSL (as root: apt-get install g++)"

# A crate of its own whose one dependency is quiche with its C API, patched: cargo fetches the
# crate, the changes are applied to a copy of its source, and [patch.crates-io] builds that copy;
# cargo builds quiche's cdylib (libquiche.so, or libquiche-<hash>.so) beside it.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/Cargo.toml" <<TOML
[package]
name = "quiche-for-jetty"
version = "0.0.0"
edition = "2021"
publish = false

[lib]
path = "lib.rs"

[dependencies]
quiche = { version = "=$version", features = ["ffi"] }
TOML
: > "$work/lib.rs"
echo "Building quiche $version with the lab's changes (cargo, about a minute) into $dir..."
"$cargo" fetch --quiet --manifest-path "$work/Cargo.toml" > "$work/build.log" 2>&1 ||
  { tail -n 20 "$work/build.log" >&2; note "cargo could not fetch quiche $version (above)"; }
cargo_home=${CARGO_HOME:-$HOME/.cargo}
crate=$(ls "$cargo_home"/registry/cache/*/"quiche-$version.crate" 2>/dev/null | head -n 1 || true)
[ -n "$crate" ] || note "cargo fetched quiche $version but its crate is not in $cargo_home/registry/cache"
mkdir "$work/quiche"
tar -xzf "$crate" -C "$work/quiche" --strip-components=1
for p in "${patches[@]}"; do
  (cd "$work/quiche" && git apply -p1 "$OLDPWD/$p") ||
    note "$p does not apply to quiche $version: the changes must be made again for this version"
done
cat >> "$work/Cargo.toml" <<TOML

[patch.crates-io]
quiche = { path = "quiche" }
TOML
if ! "$cargo" build --release --quiet --manifest-path "$work/Cargo.toml" >> "$work/build.log" 2>&1; then
  tail -n 20 "$work/build.log" >&2
  if grep -q "libclang\|stddef.h" "$work/build.log"; then
    note "cargo could not build quiche $version: bindgen needs libclang and its headers (as root: apt-get install libclang1-14 libclang-common-14-dev)"
  fi
  note "cargo could not build quiche $version (above)"
fi
built=$(ls "$work"/target/release/deps/libquiche*.so 2>/dev/null | head -n 1 || true)
[ -n "$built" ] || note "cargo built quiche $version but left no libquiche*.so"
mkdir -p "$dir"
cp "$built" "$dir/libquiche.so"
echo "$version" > "$dir/quiche.version"
echo "$patches_hash" > "$dir/quiche.patches"
mkdir -p "$cache" && cp "$built" "$cache/libquiche.so.partial" && mv "$cache/libquiche.so.partial" "$cache/libquiche.so" ||
  echo "note: could not keep the build in $cache; another clone will build it again" >&2
echo "Built quiche $version with ${patches[*]} into $dir/libquiche.so"
