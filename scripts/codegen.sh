#!/usr/bin/env bash
# Writes the plugin's SDKs (plugin-sdks/nodejs, plugin-sdks/python) from schema.json, then compiles
# the Node.js SDK into plugin-sdks/nodejs/bin. With --check, writes nothing and fails naming each
# file of the committed SDKs that differs from what schema.json generates. --schema FILE and
# --out DIR (relative to the repository root) generate or check another copy.
#
# The generator (codegen/, Go, on Pulumi's codegen libraries at the CLI's version) is built once
# into a cache directory outside the repository, keyed by the hash of its sources.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
cache_root="${DEVPLATFORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-devplatform}"

log() { printf '[codegen] %s\n' "$*" >&2; }

check=0
schema="schema.json"
out="plugin-sdks"
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1 ;;
    --schema) schema="${2:?--schema FILE}"; shift ;;
    --out) out="${2:?--out DIR}"; shift ;;
    *) log "unknown argument: $1 (--check, --schema FILE, --out DIR)"; exit 2 ;;
  esac
  shift
done

src_hash="$(cd "$root/codegen" && cat go.mod go.sum ./*.go | sha256sum | cut -c1-12)"
tool="$cache_root/codegen-$src_hash/codegen"
if [ ! -x "$tool" ]; then
  command -v go >/dev/null 2>&1 || { log "Go is required to build the SDK generator (apt-get install golang)"; exit 1; }
  log "building the SDK generator into $(dirname "$tool") (first run only)"
  mkdir -p "$(dirname "$tool")"
  (cd "$root/codegen" && GOFLAGS=-mod=readonly go build -o "$tool.tmp" .)
  mv "$tool.tmp" "$tool"
fi

cd "$root"
if [ "$check" = 1 ]; then
  exec "$tool" -schema "$schema" -out "$out" -check
fi
"$tool" -schema "$schema" -out "$out"
if [ "$out" = plugin-sdks ]; then
  bash "$here/build-plugin-sdk.sh" plugin-sdks/nodejs/bin >/dev/null
  log "compiled the Node.js SDK into plugin-sdks/nodejs/bin"
fi
