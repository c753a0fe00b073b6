#!/usr/bin/env bash
# Makes what the browser client loads besides its own files, idempotently: the npm packages of
# the page's decoders (npm ci, when node_modules is missing or was installed from another
# package-lock.json: by content, not by date, so a fresh checkout of the same lock file — a git
# worktree whose node_modules is a link to another's — never reinstalls) and
# the static protobuf code pbjs generates from proto/lab.proto at build time
# (client/codecs/generated/protobuf-static.js). Run by `mvn exec:java` before the server starts,
# and by scripts/setup.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

fail() { echo "error: $*" >&2; exit 1; }
command -v node >/dev/null || fail "Node.js 20 or newer is needed for the page's decoders (node not found on PATH)"

lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
stamp=node_modules/.installed-from-lock
if [ ! -d node_modules ] || [ "$(cat "$stamp" 2>/dev/null)" != "$lock_hash" ]; then
  echo "Installing the Node packages (npm ci)..."
  npm ci --no-audit --no-fund >/dev/null || fail "npm ci could not install the Node packages"
  echo "$lock_hash" >"$stamp"
fi

wrapper=client/codecs/protobuf-static.wrapper
generated=client/codecs/generated/protobuf-static.js
if [ ! -f "$generated" ] || [ proto/lab.proto -nt "$generated" ] || [ "$wrapper" -nt "$generated" ]; then
  mkdir -p "$(dirname "$generated")"
  node_modules/.bin/pbjs -t static-module -w "$wrapper" --keep-case --no-encode --no-verify --no-convert --no-delimited \
    -r lab_static -o "$generated.tmp" proto/lab.proto || fail "pbjs could not generate $generated"
  mv "$generated.tmp" "$generated"
fi
