#!/usr/bin/env bash
# Builds the native QUIC library that the server's HTTP/3 connector runs on (quiche, through Jetty's
# JNA binding: docs/protocols.md), once, into a folder that is never committed (default
# tools/quiche): libquiche.so and quiche.version. Jetty's binding accepts exactly one quiche
# version, the root pom's quiche.version; the library is built again only when it is missing or
# of another version. Maven does not serve Jetty's own build of it here, so cargo builds quiche's
# crate from crates.io with its C API (feature ffi); quiche's BoringSSL needs cmake, a C/C++
# compiler and libclang (bindgen). Without them the server serves no h3 and says why
# (/api/info's protocols_note); this script then says what is missing and exits 0, so that the
# rest of the set-up goes on. Usage: scripts/quiche.sh [folder, relative to the repository]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

dir=${1:-tools/quiche}
version=$(sed -n 's:.*<quiche.version>\(.*\)</quiche.version>.*:\1:p' pom.xml)
[ -n "$version" ] || { echo "error: pom.xml names no quiche.version" >&2; exit 1; }
[ -f "$dir/libquiche.so" ] && [ "$(cat "$dir/quiche.version" 2>/dev/null)" = "$version" ] && exit 0

note() { echo "note: no HTTP/3: $*; the server runs without its h3 connector" >&2; exit 0; }
cargo=$(command -v cargo || echo "$HOME/.cargo/bin/cargo")
[ -x "$cargo" ] || note "cargo (Rust) is needed to build quiche $version into $dir (https://rustup.rs)"
command -v cmake >/dev/null || note "cmake is needed to build quiche $version's BoringSSL (as root: apt-get install cmake)"
command -v c++ >/dev/null || note "a C++ compiler is needed to build quiche $version's BoringSSL (as root: apt-get install g++)"

# A crate of its own whose one dependency is quiche with its C API: cargo builds quiche's
# cdylib (libquiche-<hash>.so) beside it.
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
echo "Building quiche $version (cargo, about a minute) into $dir..."
if ! "$cargo" build --release --quiet --manifest-path "$work/Cargo.toml" > "$work/build.log" 2>&1; then
  tail -n 20 "$work/build.log" >&2
  if grep -q "libclang\|stddef.h" "$work/build.log"; then
    note "cargo could not build quiche $version: bindgen needs libclang and its headers (as root: apt-get install libclang1-14 libclang-common-14-dev)"
  fi
  note "cargo could not build quiche $version (above)"
fi
built=$(ls "$work"/target/release/deps/libquiche-*.so 2>/dev/null | head -n 1)
[ -n "$built" ] || note "cargo built quiche $version but left no libquiche-*.so"
mkdir -p "$dir"
cp "$built" "$dir/libquiche.so"
echo "$version" > "$dir/quiche.version"
echo "Built quiche $version into $dir/libquiche.so"
