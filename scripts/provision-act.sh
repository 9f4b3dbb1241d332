#!/usr/bin/env bash
# Prints the directory holding `act` (nektos/act, v$ACT_VERSION), the GitHub Actions runner the
# GitOps e2e tests run the example fleet repository's workflows with (`-P ubuntu-latest=-self-hosted`:
# steps run on this host, no container, no network).
#
# Uses the `act` on PATH when it is the pinned version; otherwise builds it once with
# `go install github.com/nektos/act@v$ACT_VERSION` from the Go module proxy into a cache outside
# the repository (about a minute on 2 cores). Nothing here is written by this project.
# Progress goes to stderr; the only line on stdout is the directory.
set -euo pipefail

ACT_VERSION="${DEVPLATFORM_ACT_VERSION:-0.2.89}"
cache_root="${DEVPLATFORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-devplatform}"
bin_dir="$cache_root/act-v$ACT_VERSION/bin"

log() { printf '[provision-act] %s\n' "$*" >&2; }

if command -v act >/dev/null 2>&1 && [ "$(act --version 2>/dev/null)" = "act version $ACT_VERSION" ]; then
  dirname "$(command -v act)"
  exit 0
fi
if [ -x "$bin_dir/act" ]; then
  echo "$bin_dir"
  exit 0
fi

command -v go >/dev/null 2>&1 || { log "Go is required to build act (apt-get install golang)"; exit 1; }
mkdir -p "$cache_root"
exec 9>"$cache_root/provision-act.lock"
flock 9
if [ ! -x "$bin_dir/act" ]; then
  log "building act v$ACT_VERSION from the Go module proxy (first run only; about a minute)"
  mkdir -p "$bin_dir"
  GOBIN="$bin_dir.tmp" go install -ldflags "-s -w -X main.version=$ACT_VERSION" \
    "github.com/nektos/act@v$ACT_VERSION" >&2
  mv "$bin_dir.tmp/act" "$bin_dir/act"
  rmdir "$bin_dir.tmp"
  log "built $("$bin_dir/act" --version)"
fi
echo "$bin_dir"
