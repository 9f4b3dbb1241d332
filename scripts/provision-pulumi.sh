#!/usr/bin/env bash
# Prints the directory that holds a working `pulumi` CLI at the pinned version.
#
# Uses the `pulumi` on PATH when it is already the pinned version; otherwise builds the CLI once
# from its Go modules (the machine cannot download Pulumi's installer) into a cache directory
# outside the repository, which later runs and CI on the same machine reuse.
# Progress goes to stderr; the only line on stdout is the directory.
set -euo pipefail

PULUMI_VERSION="${PULUMI_VERSION:-3.259.0}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache_root="${DEVPLATFORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-devplatform}"
bin_dir="$cache_root/pulumi-v$PULUMI_VERSION/bin"

log() { printf '[provision-pulumi] %s\n' "$*" >&2; }

if command -v pulumi >/dev/null 2>&1; then
  on_path="$(pulumi version 2>/dev/null || true)"
  if [ "$on_path" = "v$PULUMI_VERSION" ] && command -v pulumi-language-nodejs >/dev/null 2>&1; then
    dirname "$(command -v pulumi)"
    exit 0
  fi
fi

host_src="$here/language-host/pulumi-language-nodejs.cts"
host_hash="$( (cat "$host_src" "${BASH_SOURCE[0]}"; echo "$PULUMI_VERSION") | sha256sum | cut -c1-12)"
host_dir="$cache_root/language-host-$host_hash"

launchers_current() {
  [ -x "$bin_dir/pulumi-language-nodejs" ] && grep -q "$host_hash" "$bin_dir/pulumi-language-nodejs" \
    && [ -x "$bin_dir/pulumi-resource-pulumi-nodejs" ] && [ -f "$host_dir/.complete" ]
}

if [ -x "$bin_dir/pulumi" ] && [ "$("$bin_dir/pulumi" version 2>/dev/null)" = "v$PULUMI_VERSION" ] && launchers_current; then
  echo "$bin_dir"
  exit 0
fi

# The language host and the dynamic-provider launcher run on Node 22.
node_bin="$(bash "$here/provision-node.sh")/node"

install_launchers() {
  if [ ! -f "$host_dir/.complete" ]; then
    log "installing the Node.js language host into $host_dir"
    mkdir -p "$host_dir"
    cp "$host_src" "$host_dir/pulumi-language-nodejs.cts"
    echo '{ "private": true, "type": "commonjs" }' >"$host_dir/package.json"
    PATH="$(dirname "$node_bin"):$PATH" npm install --prefix "$host_dir" --no-audit --no-fund --loglevel=error \
      "@pulumi/pulumi@$PULUMI_VERSION" >&2
    touch "$host_dir/.complete"
  fi
  cat >"$bin_dir/pulumi-language-nodejs" <<LAUNCHER
#!/bin/sh
# Pulumi's Node.js language host ($host_hash); see scripts/language-host in pulumi-devplatform.
exec "$node_bin" --disable-warning=ExperimentalWarning "$host_dir/pulumi-language-nodejs.cts" "\$@"
LAUNCHER
  # The engine starts this for dynamic resources. Like Pulumi's own launcher it runs the provider
  # host of the program's own @pulumi/pulumi, found from the working directory upwards (so a
  # project whose `main` is a subfolder works too).
  cat >"$bin_dir/pulumi-resource-pulumi-nodejs" <<LAUNCHER
#!/bin/sh
host=\$("$node_bin" -p 'require.resolve("@pulumi/pulumi/cmd/dynamic-provider", { paths: [process.cwd()] })') || exit 1
exec "$node_bin" "\$host" "\$@"
LAUNCHER
  chmod +x "$bin_dir/pulumi-language-nodejs" "$bin_dir/pulumi-resource-pulumi-nodejs"
}

if [ -x "$bin_dir/pulumi" ] && [ "$("$bin_dir/pulumi" version 2>/dev/null)" = "v$PULUMI_VERSION" ]; then
  mkdir -p "$bin_dir"
  install_launchers
  echo "$bin_dir"
  exit 0
fi

command -v go >/dev/null 2>&1 || { log "Go is required to build the Pulumi CLI (apt-get install golang)"; exit 1; }
mkdir -p "$bin_dir"
build_dir="$cache_root/pulumi-v$PULUMI_VERSION/build"
mkdir -p "$build_dir"

# A throw-away module that pins the CLI release. Pulumi's pkg/go.mod carries one non-local
# replace directive (clipboard); a dependent module must repeat it to build the same code.
cat >"$build_dir/go.mod" <<GOMOD
module devplatform.local/pulumi-build

go 1.25

require (
	github.com/pulumi/pulumi/pkg/v3 v$PULUMI_VERSION
	github.com/pulumi/pulumi/sdk/v3 v$PULUMI_VERSION
)

replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e
GOMOD
cat >"$build_dir/tools.go" <<'GOSRC'
//go:build tools

package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
GOSRC

cd "$build_dir"
export GOFLAGS="${GOFLAGS:-} -mod=mod"
log "resolving Go modules for pulumi v$PULUMI_VERSION (first run only; several minutes)"
go mod tidy -e >&2 2>&1 || go mod download >&2
ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PULUMI_VERSION"
log "building pulumi (first run only; about 10 minutes on 2 cores)"
go build -v -ldflags "$ldflags" -o "$bin_dir/pulumi.tmp" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi 2>&1 \
  | awk '{ n++; if (n % 100 == 0) { printf "[provision-pulumi] compiled %d packages, now %s\n", n, $0; fflush() } }' >&2
mv "$bin_dir/pulumi.tmp" "$bin_dir/pulumi"
log "built $("$bin_dir/pulumi" version)"
install_launchers
echo "$bin_dir"
