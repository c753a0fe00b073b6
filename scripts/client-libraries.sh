#!/usr/bin/env bash
# Makes what the browser client loads besides its own files, idempotently: the npm packages of
# the page's decoders (npm ci, when node_modules is missing or was installed from another
# package-lock.json: by content, not by date, so a fresh checkout of the same lock file — a git
# worktree whose node_modules is a link to another's — never reinstalls); each of those packages
# as one ES module, client/vendor/<package>.js, which the page's import map names (esbuild joins a
# package's own modules, its code unchanged, and leaves the other packages it imports to the map:
# a page loads five files where it loaded sixty); and
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

# One module per package of package.json's dependencies, remade when the lock file changes.
bundles=client/vendor
bundle_stamp=$bundles/.built-from-lock
if [ "$(cat "$bundle_stamp" 2>/dev/null)" != "$lock_hash" ]; then
  rm -rf "$bundles" && mkdir -p "$bundles"
  mapfile -t packages < <(node -e 'console.log(Object.keys(require("./package.json").dependencies).join("\n"))')
  for package in "${packages[@]}"; do
    externals=()
    for other in "${packages[@]}"; do [ "$other" = "$package" ] || externals+=("--external:$other"); done
    echo "export * from '$package';" | node_modules/.bin/esbuild --bundle --format=esm --platform=browser \
      --log-level=warning --sourcefile="$package" "${externals[@]}" --outfile="$bundles/$package.js" ||
      fail "esbuild could not bundle the npm package $package into $bundles/$package.js"
  done
  echo "$lock_hash" >"$bundle_stamp"
fi

wrapper=client/codecs/protobuf-static.wrapper
generated=client/codecs/generated/protobuf-static.js
if [ ! -f "$generated" ] || [ proto/lab.proto -nt "$generated" ] || [ "$wrapper" -nt "$generated" ]; then
  mkdir -p "$(dirname "$generated")"
  node_modules/.bin/pbjs -t static-module -w "$wrapper" --keep-case --no-encode --no-verify --no-convert --no-delimited \
    -r lab_static -o "$generated.tmp" proto/lab.proto || fail "pbjs could not generate $generated"
  mv "$generated.tmp" "$generated"
fi
