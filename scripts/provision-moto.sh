#!/usr/bin/env bash
# Prints the directory of a Python virtual environment holding moto's server (PyPI `moto[server]`,
# v$MOTO_VERSION): an S3 API on loopback, the shared state backend the GitOps e2e tests give the
# example fleet repository's workflows (`s3://BUCKET?endpoint=127.0.0.1:PORT&disableSSL=true&…`),
# as a team's runners share one bucket. Start it with `"$dir/bin/moto_server" -H 127.0.0.1 -p PORT`.
#
# Made once in a cache directory outside the repository, keyed by moto's and Python's versions.
# Progress goes to stderr; the only line on stdout is the directory.
set -euo pipefail

MOTO_VERSION="${DEVPLATFORM_MOTO_VERSION:-5.2.5}"
cache_root="${DEVPLATFORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-devplatform}"
python="${DEVPLATFORM_PYTHON:-python3}"

log() { printf '[provision-moto] %s\n' "$*" >&2; }

command -v "$python" >/dev/null 2>&1 || { log "Python 3.9 or newer is required (apt-get install python3-venv)"; exit 1; }
py_version="$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
venv="$cache_root/moto-v$MOTO_VERSION-py$py_version"

if [ -f "$venv/.complete" ]; then
  echo "$venv"
  exit 0
fi

mkdir -p "$cache_root"
exec 9>"$venv.lock"
flock 9
if [ ! -f "$venv/.complete" ]; then
  rm -rf "$venv"
  log "creating $venv (moto[server]==$MOTO_VERSION from PyPI)"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "moto[server]==$MOTO_VERSION" >&2
  "$venv/bin/moto_server" --help >/dev/null
  touch "$venv/.complete"
fi
echo "$venv"
