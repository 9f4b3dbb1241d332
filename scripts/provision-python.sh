#!/usr/bin/env bash
# Prints the directory of a Python virtual environment holding `pulumi` from PyPI at the CLI's
# version (the runtime a Python program runs on under `pulumi up`, with the environment activated)
# and the generated Python SDK (plugin-sdks/python, `pulumi_devplatform`), installed from its wheel.
#
# The environment is made once in a cache directory outside the repository, keyed by the Pulumi
# version, the Python version and the hash of the generated SDK: a regenerated SDK gets a new
# environment (pip's own cache makes that quick), and two checkouts with different SDKs never
# share one. Progress goes to stderr; the only line on stdout is the directory.
set -euo pipefail

PULUMI_VERSION="${PULUMI_VERSION:-3.259.0}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
cache_root="${DEVPLATFORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-devplatform}"
python="${DEVPLATFORM_PYTHON:-python3}"
sdk="$root/plugin-sdks/python"

log() { printf '[provision-python] %s\n' "$*" >&2; }

command -v "$python" >/dev/null 2>&1 || { log "Python 3.9 or newer is required (apt-get install python3-venv)"; exit 1; }
py_version="$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
[ -f "$sdk/pyproject.toml" ] || { log "no generated SDK in $sdk (run npm run codegen)"; exit 1; }
sdk_hash="$(cd "$sdk" && find . -type f ! -path '*/__pycache__/*' ! -path '*.egg-info/*' ! -path './build/*' \
  | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-12)"
venv="$cache_root/python-pulumi-v$PULUMI_VERSION-py$py_version-sdk-$sdk_hash"

if [ -f "$venv/.complete" ]; then
  echo "$venv"
  exit 0
fi

mkdir -p "$cache_root"
exec 9>"$venv.lock"
flock 9
if [ ! -f "$venv/.complete" ]; then
  rm -rf "$venv"
  log "creating $venv (pulumi==$PULUMI_VERSION from PyPI and the generated SDK's wheel)"
  "$python" -m venv "$venv"
  # The SDK as users install it: its wheel (scripts/package-sdks.sh), which also leaves no build
  # files in the checkout and no tie to the checkout that made the environment.
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  wheel="$(bash "$here/package-sdks.sh" "$scratch" --python | grep '\.whl$')"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "pulumi==$PULUMI_VERSION" "$wheel" >&2
  "$venv/bin/python" -c "import pulumi, pulumi_devplatform" >&2
  touch "$venv/.complete"
fi
echo "$venv"
