#!/usr/bin/env bash
# Starts the platform emulator from a checkout, on any machine with bash, curl and tar:
#   scripts/emulator.sh [--port N] [--state FILE] [...]   (the options of `npm run emulator`)
# Node.js 22 comes from provision-node.sh (the machine's, or one fetched into the cache, with npm
# when the machine has none), and the first run installs the checkout's dependencies with `npm ci`.
# Its first line on stdout is `devplatform-emulator listening on http://HOST:PORT`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
node_dir="$(bash "$here/provision-node.sh")"
export PATH="$node_dir:$PATH"
if [ ! -x "$root/node_modules/.bin/tsx" ]; then
  printf '[emulator] installing the checkout'"'"'s dependencies with npm ci (first run only)\n' >&2
  (cd "$root" && npm ci --no-audit --no-fund --no-update-notifier --loglevel=error >&2)
fi
cd "$root"
exec "$root/node_modules/.bin/tsx" cli/main.ts emulator "$@"
