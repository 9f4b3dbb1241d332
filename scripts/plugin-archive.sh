#!/usr/bin/env bash
# Builds the provider plugin archive for `pulumi plugin install resource devplatform VERSION --file …`:
# pulumi-resource-devplatform-v<version>-linux-amd64.tar.gz in OUT_DIR (default: the repository
# root), and prints its path. The archive holds the npm package as users install it (package.json,
# the compiled dist/, the launcher bin/pulumi-resource-devplatform), the production node_modules
# pinned by package-lock.json, and at its top the executable the engine looks for, which runs the
# package's own launcher.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
out_dir="${1:-$root}"
mkdir -p "$out_dir"
out_dir="$(cd "$out_dir" && pwd)"

log() { printf '[plugin-archive] %s\n' "$*" >&2; }
in_node() { bash "$here/with-node.sh" "$@"; }

cd "$root"
[ -x bin/pulumi-resource-devplatform ] || { log "bin/pulumi-resource-devplatform is missing"; exit 1; }
version="$(in_node node -p 'require("./package.json").version')"
archive="$out_dir/pulumi-resource-devplatform-v$version-linux-amd64.tar.gz"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
log "building and packing pulumi-devplatform $version"
in_node npm run --silent build >&2
in_node npm pack --silent --ignore-scripts --pack-destination "$scratch" >/dev/null
tar -xzf "$scratch"/pulumi-devplatform-*.tgz -C "$scratch"
stage="$scratch/package"

log "installing the production dependencies (package-lock.json)"
cp package-lock.json "$stage/"
# @pulumi/pulumi is a peer dependency the plugin needs at run time (its gRPC stubs); the lockfile
# pins it, so it is installed as a production dependency of the archive.
(cd "$stage" && in_node npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
if [ ! -d "$stage/node_modules/@pulumi/pulumi" ]; then
  pulumi_sdk="$(in_node node -p 'require("./node_modules/@pulumi/pulumi/package.json").version')"
  (cd "$stage" && in_node npm install --no-save --omit=dev --ignore-scripts --no-audit --no-fund \
    --loglevel=error "@pulumi/pulumi@$pulumi_sdk" >&2)
fi
rm "$stage/package-lock.json"

cat >"$stage/pulumi-resource-devplatform" <<'LAUNCHER'
#!/bin/sh
# The engine runs this file of an installed plugin; it runs the package's own launcher.
exec "$(dirname "$0")/bin/pulumi-resource-devplatform" "$@"
LAUNCHER
chmod +x "$stage/pulumi-resource-devplatform"

tar -czf "$archive.tmp" -C "$stage" .
mv "$archive.tmp" "$archive"
log "wrote $archive ($(du -h "$archive" | cut -f1))"
echo "$archive"
