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

log "installing the production dependencies (versions from package-lock.json)"
cp package-lock.json "$stage/"
cp "$stage/package.json" "$scratch/package.json.orig"
# @pulumi/pulumi, whose gRPC stubs the plugin serves, is a peer dependency (and a devDependency for
# the project's own tests): without the devDependencies npm installs it as the peer, at the locked version.
(cd "$stage" && in_node node -e '
  const fs = require("fs");
  const p = JSON.parse(fs.readFileSync("package.json", "utf8"));
  delete p.devDependencies;
  fs.writeFileSync("package.json", JSON.stringify(p, null, 2));')
(cd "$stage" && in_node npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
[ -f "$stage/node_modules/@pulumi/pulumi/package.json" ] || { log "@pulumi/pulumi was not installed"; exit 1; }
cp "$scratch/package.json.orig" "$stage/package.json"
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
