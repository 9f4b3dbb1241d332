#!/usr/bin/env bash
# Prints the directory holding a Node.js 22 `node` binary.
#
# The machine's own node when it is 22 or newer; otherwise Node 22 from the npm registry's `node`
# package (which ships the binary as a registry package), installed once into a cache outside the
# repository. On a machine with no npm at all (no Node.js), the registry's tarballs of Node.js's
# binary (`node-<os>-<arch>`) and of npm are fetched with curl, checked against the registry's
# sha512, and unpacked into the cache; that directory then holds `node`, `npm` and `npx`.
# Progress goes to stderr; the only line on stdout is the directory.
set -euo pipefail

NODE_VERSION="${DEVPLATFORM_NODE_VERSION:-22.23.3}"
cache_root="${DEVPLATFORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-devplatform}"
prefix="$cache_root/node-v$NODE_VERSION"

log() { printf '[provision-node] %s\n' "$*" >&2; }

if command -v node >/dev/null 2>&1; then
  major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  if [ "$major" -ge 22 ]; then
    dirname "$(command -v node)"
    exit 0
  fi
fi

standalone="$cache_root/node-v$NODE_VERSION-standalone"
if ! command -v npm >/dev/null 2>&1; then
  # No npm to install with, nor to run beside node: Node.js and npm from their tarballs
  # (standalone-node.sh; it returns at once when they are already there).
  bash "$(dirname "${BASH_SOURCE[0]}")/standalone-node.sh" "$standalone" "$NODE_VERSION"
  echo "$standalone/bin"
  exit 0
fi

for bin in "$prefix/node_modules/node/bin" "$standalone/bin"; do
  if [ -x "$bin/node" ] && [ "$("$bin/node" --version 2>/dev/null)" = "v$NODE_VERSION" ]; then
    echo "$bin"
    exit 0
  fi
done
bin="$prefix/node_modules/node/bin"

log "installing Node.js $NODE_VERSION from the npm registry into $prefix (first run only)"
mkdir -p "$prefix"
# A lock directory keeps two parallel first runs (npm scripts, CI) from installing over each other.
lock="$prefix.lock"
until mkdir "$lock" 2>/dev/null; do sleep 1; done
trap 'rmdir "$lock"' EXIT
if [ ! -x "$bin/node" ]; then
  npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "node@$NODE_VERSION" >&2
fi
"$bin/node" --version >&2
echo "$bin"
