#!/usr/bin/env bash
# The plugin's release archives: `scripts/plugin-archive.sh [OUT_DIR] [--targets LIST|all]` writes
# pulumi-resource-devplatform-v<version>-<os>-<arch>.tar.gz (default: every target this machine
# builds) into OUT_DIR (default: the repository root) and prints their paths. Each holds one
# self-contained executable; see scripts/plugin-executable/main.ts.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$here/with-node.sh" "$(dirname "$here")/node_modules/.bin/tsx" "$here/plugin-executable/main.ts" "$@"
