#!/usr/bin/env bash
# Runs a command with Node.js 22 first on PATH (see provision-node.sh), and the Pulumi CLI's
# directory too when DEVPLATFORM_WITH_PULUMI=1.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
node_dir="$(bash "$here/provision-node.sh")"
export PATH="$node_dir:$PATH"
if [ "${DEVPLATFORM_WITH_PULUMI:-0}" = 1 ]; then
  pulumi_dir="$(bash "$here/provision-pulumi.sh")"
  export PATH="$pulumi_dir:$PATH"
fi
exec "$@"
