#!/usr/bin/env bash
# The plugin's release archives: `scripts/plugin-archive.sh [OUT_DIR] [--targets LIST|all] [--fresh]`
# writes pulumi-resource-devplatform-v<version>-<os>-<arch>.tar.gz (default: every target) and the
# checksums file of every archive of the version into OUT_DIR (default: the repository root) and
# prints the archives' paths. Each holds one self-contained executable; see
# scripts/plugin-executable/build.ts. Needs no Node.js on the machine: with-node.sh provides it, and
# the first run in a fresh checkout installs its dependencies with `npm ci`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
if [ ! -x "$root/node_modules/.bin/tsx" ]; then
  printf '[plugin-archive] installing the checkout'"'"'s dependencies with npm ci (first run only)\n' >&2
  (cd "$root" && bash "$here/with-node.sh" npm ci --no-audit --no-fund --no-update-notifier --loglevel=error >&2)
fi
exec bash "$here/with-node.sh" "$root/node_modules/.bin/tsx" "$here/plugin-executable/main.ts" "$@"
