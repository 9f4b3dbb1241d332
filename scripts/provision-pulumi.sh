#!/usr/bin/env bash
# Prints the directory that holds the Pulumi toolchain users run, at the pinned versions:
#
#   pulumi                          the CLI (v$PULUMI_VERSION)
#   pulumi-language-nodejs          Pulumi's own Node.js language host
#   pulumi-language-python(-exec)   Pulumi's own Python language host and its exec script
#   pulumi-language-yaml            Pulumi YAML's language host
#   pulumi-language-go              Pulumi's own Go language host
#   pulumi-resource-pulumi-nodejs   Pulumi's own dynamic-provider launcher, from @pulumi/pulumi
#
# Uses the `pulumi` on PATH when it is already the pinned version and has its hosts beside it;
# otherwise builds each program once from Pulumi's Go modules (the machine cannot download
# Pulumi's installer) into a cache outside the repository, which later runs and CI on the same
# machine reuse. Nothing here is written by this project: every program is Pulumi's own.
# Progress goes to stderr; the only line on stdout is the directory.
set -euo pipefail

PULUMI_VERSION="${PULUMI_VERSION:-3.259.0}"
# The newest releases whose Go modules still hold the language hosts the proxy serves (later
# module paths such as …/sdk/nodejs/cmd/pulumi-language-nodejs/v3 answer 403 here). They speak
# the same LanguageRuntime protocol the CLI drives; the program's own @pulumi/pulumi (the pinned
# SDK) does the work.
HOSTS_SDK_VERSION="${DEVPLATFORM_HOSTS_SDK_VERSION:-3.68.0}"
YAML_VERSION="${DEVPLATFORM_YAML_VERSION:-1.25.0}"
# The Go host left the sdk module earlier than the others (v3.67.0 moved go/pulumi-language-go to
# …/sdk/go/pulumi-language-go/v3, which answers 403 here too); v3.52.0 is the release of it this
# project verified.
GO_HOST_SDK_VERSION="${DEVPLATFORM_GO_HOST_SDK_VERSION:-3.52.0}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache_root="${DEVPLATFORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-devplatform}"
cli_dir="$cache_root/pulumi-v$PULUMI_VERSION/bin"
hosts_dir="$cache_root/hosts-sdk-v$HOSTS_SDK_VERSION-yaml-v$YAML_VERSION"
go_host_dir="$cache_root/go-host-sdk-v$GO_HOST_SDK_VERSION"
sdk_dir="$cache_root/pulumi-nodejs-sdk-v$PULUMI_VERSION"
toolchain_key="$( (cat "${BASH_SOURCE[0]}"; echo "$PULUMI_VERSION $HOSTS_SDK_VERSION $YAML_VERSION $GO_HOST_SDK_VERSION") | sha256sum | cut -c1-12)"
bin_dir="$cache_root/toolchain-$toolchain_key/bin"

log() { printf '[provision-pulumi] %s\n' "$*" >&2; }

if command -v pulumi >/dev/null 2>&1; then
  on_path="$(pulumi version 2>/dev/null || true)"
  path_dir="$(dirname "$(command -v pulumi)")"
  complete=1
  for program in pulumi-language-nodejs pulumi-language-python pulumi-language-python-exec \
    pulumi-language-yaml pulumi-language-go pulumi-resource-pulumi-nodejs; do
    [ -x "$path_dir/$program" ] || complete=0
  done
  if [ "$on_path" = "v$PULUMI_VERSION" ] && [ "$complete" = 1 ]; then
    echo "$path_dir"
    exit 0
  fi
fi

if [ -f "$bin_dir/.complete" ]; then
  echo "$bin_dir"
  exit 0
fi

command -v go >/dev/null 2>&1 || { log "Go is required to build Pulumi's programs (apt-get install golang)"; exit 1; }
export GOFLAGS="${GOFLAGS:-} -mod=mod"

# A lock directory keeps two parallel first runs from building over each other.
mkdir -p "$cache_root"
lock="$cache_root/provision-pulumi.lock"
until mkdir "$lock" 2>/dev/null; do sleep 2; done
trap 'rmdir "$lock"' EXIT
if [ -f "$bin_dir/.complete" ]; then
  echo "$bin_dir"
  exit 0
fi

build_cli() {
  [ -x "$cli_dir/pulumi" ] && [ "$("$cli_dir/pulumi" version 2>/dev/null)" = "v$PULUMI_VERSION" ] && return 0
  mkdir -p "$cli_dir"
  local build_dir="$cache_root/pulumi-v$PULUMI_VERSION/build"
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
  log "resolving Go modules for pulumi v$PULUMI_VERSION (first run only; several minutes)"
  (cd "$build_dir" && { go mod tidy -e >&2 2>&1 || go mod download >&2; })
  local ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PULUMI_VERSION"
  log "building pulumi (first run only; about 10 minutes on 2 cores)"
  (cd "$build_dir" && go build -v -ldflags "$ldflags" -o "$cli_dir/pulumi.tmp" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi 2>&1) \
    | awk '{ n++; if (n % 100 == 0) { printf "[provision-pulumi] compiled %d packages, now %s\n", n, $0; fflush() } }' >&2
  mv "$cli_dir/pulumi.tmp" "$cli_dir/pulumi"
  log "built $("$cli_dir/pulumi" version)"
}

build_hosts() {
  [ -f "$hosts_dir/.complete" ] && return 0
  mkdir -p "$hosts_dir/bin" "$hosts_dir/sdk-build"
  # The sdk module's own go.mod replaces golang.org/x/text; a module that requires it must repeat
  # that (which is also why `go install pkg@version` refuses it).
  cat >"$hosts_dir/sdk-build/go.mod" <<GOMOD
module devplatform.local/pulumi-language-hosts

go 1.21

require github.com/pulumi/pulumi/sdk/v3 v$HOSTS_SDK_VERSION

replace golang.org/x/text => golang.org/x/text v0.3.6
GOMOD
  cat >"$hosts_dir/sdk-build/tools.go" <<'GOSRC'
//go:build tools

package tools

import (
	_ "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs"
	_ "github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python"
)
GOSRC
  log "building Pulumi's Node.js and Python language hosts (sdk v$HOSTS_SDK_VERSION; first run only)"
  local ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$HOSTS_SDK_VERSION"
  (cd "$hosts_dir/sdk-build" && { go mod tidy -e >&2 2>&1 || true; } \
    && go build -ldflags "$ldflags" -o "$hosts_dir/bin/" \
      github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs \
      github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python >&2)
  # The Python host runs programs through this script of the same module.
  local exec_script
  exec_script="$(cd "$hosts_dir/sdk-build" && go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)/python/cmd/pulumi-language-python-exec"
  install -m 0755 "$exec_script" "$hosts_dir/bin/pulumi-language-python-exec"
  log "building Pulumi YAML's language host (pulumi-yaml v$YAML_VERSION; first run only)"
  GOBIN="$hosts_dir/bin" go install \
    -ldflags "-s -w -X github.com/pulumi/pulumi-yaml/pkg/version.Version=v$YAML_VERSION" \
    "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@v$YAML_VERSION" >&2
  touch "$hosts_dir/.complete"
}

build_go_host() {
  [ -f "$go_host_dir/.complete" ] && return 0
  mkdir -p "$go_host_dir/bin" "$go_host_dir/sdk-build"
  # The same kind of throwaway module as the other hosts, at the Go host's own sdk release (which
  # carries the same golang.org/x/text replace).
  cat >"$go_host_dir/sdk-build/go.mod" <<GOMOD
module devplatform.local/pulumi-language-go-host

go 1.21

require github.com/pulumi/pulumi/sdk/v3 v$GO_HOST_SDK_VERSION

replace golang.org/x/text => golang.org/x/text v0.3.6
GOMOD
  cat >"$go_host_dir/sdk-build/tools.go" <<'GOSRC'
//go:build tools

package tools

import _ "github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go"
GOSRC
  log "building Pulumi's Go language host (sdk v$GO_HOST_SDK_VERSION; first run only)"
  (cd "$go_host_dir/sdk-build" && { go mod tidy -e >&2 2>&1 || true; } \
    && go build -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$GO_HOST_SDK_VERSION" \
      -o "$go_host_dir/bin/" github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go >&2)
  touch "$go_host_dir/.complete"
}

install_dynamic_launcher() {
  # Pulumi's own launcher ships in @pulumi/pulumi (and in the CLI's release archive): the engine
  # runs it for dynamic resources. Taken from the pinned package, never written here.
  if [ ! -f "$sdk_dir/.complete" ]; then
    log "installing @pulumi/pulumi@$PULUMI_VERSION for its dynamic-provider launcher"
    mkdir -p "$sdk_dir"
    echo '{ "private": true }' >"$sdk_dir/package.json"
    npm install --prefix "$sdk_dir" --no-audit --no-fund --loglevel=error --ignore-scripts \
      "@pulumi/pulumi@$PULUMI_VERSION" >&2
    touch "$sdk_dir/.complete"
  fi
}

build_cli
build_hosts
build_go_host
install_dynamic_launcher
mkdir -p "$bin_dir"
# A link the CLI resolves would make it look for its hosts beside the build, not here: a hard link
# (or a copy across file systems) keeps this directory the CLI's own.
ln -f "$cli_dir/pulumi" "$bin_dir/pulumi" 2>/dev/null || cp "$cli_dir/pulumi" "$bin_dir/pulumi"
for host in pulumi-language-nodejs pulumi-language-python pulumi-language-python-exec pulumi-language-yaml; do
  ln -f "$hosts_dir/bin/$host" "$bin_dir/$host" 2>/dev/null || cp "$hosts_dir/bin/$host" "$bin_dir/$host"
done
ln -f "$go_host_dir/bin/pulumi-language-go" "$bin_dir/pulumi-language-go" 2>/dev/null \
  || cp "$go_host_dir/bin/pulumi-language-go" "$bin_dir/pulumi-language-go"
install -m 0755 "$sdk_dir/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs" "$bin_dir/pulumi-resource-pulumi-nodejs"
touch "$bin_dir/.complete"
log "toolchain in $bin_dir"
echo "$bin_dir"
