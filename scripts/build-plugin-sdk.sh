#!/usr/bin/env bash
# Compiles the generated Node.js SDK (plugin-sdks/nodejs) into OUT_DIR as an installable package
# (JavaScript, declarations, package.json, README) and prints OUT_DIR. `npm pack OUT_DIR` makes the
# tarball a program installs, as Pulumi's own SDKs are published from their `bin`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
out_dir="${1:?usage: build-plugin-sdk.sh OUT_DIR}"
sdk="$root/plugin-sdks/nodejs"

mkdir -p "$out_dir"
out_dir="$(cd "$out_dir" && pwd)"
# The SDK's own tsconfig; @pulumi/pulumi and typescript resolve from the project's node_modules.
bash "$here/with-node.sh" "$root/node_modules/.bin/tsc" -p "$sdk/tsconfig.json" --outDir "$out_dir"
cp "$sdk/package.json" "$sdk/README.md" "$out_dir/"
echo "$out_dir"
