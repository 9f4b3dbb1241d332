#!/usr/bin/env bash
# The generated SDKs as users install them: `scripts/package-sdks.sh OUT_DIR [--nodejs] [--python]`
# (both by default) writes into OUT_DIR
#   devplatform-pulumi-<version>.tgz                  the TypeScript SDK's npm tarball (`npm install FILE`)
#   pulumi_devplatform-<version>-py3-none-any.whl     the Python SDK's wheel (`pip install FILE`)
#   pulumi_devplatform-<version>.tar.gz               its sdist
# and prints their paths. Versions move in lockstep: the package's version (package.json) is the
# plugin's, the schema's and both SDKs'; the script refuses to package when any differs (run
# `npm run schema && npm run codegen` after changing it).
#
# The Python build uses PyPA's `build` (from PyPI) in a virtual environment in the cache; it builds
# from a copy of plugin-sdks/python, so no build files land in the checkout.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
cache_root="${DEVPLATFORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-devplatform}"
python="${DEVPLATFORM_PYTHON:-python3}"
BUILD_VERSION="1.6.1"

log() { printf '[package-sdks] %s\n' "$*" >&2; }

out_dir=""
nodejs=0
py=0
for arg in "$@"; do
  case "$arg" in
    --nodejs) nodejs=1 ;;
    --python) py=1 ;;
    -*) log "unknown option $arg (--nodejs, --python)"; exit 2 ;;
    *) out_dir="$arg" ;;
  esac
done
[ -n "$out_dir" ] || { log "usage: package-sdks.sh OUT_DIR [--nodejs] [--python]"; exit 2; }
if [ "$nodejs" = 0 ] && [ "$py" = 0 ]; then nodejs=1; py=1; fi
mkdir -p "$out_dir"
out_dir="$(cd "$out_dir" && pwd)"

json_version() { "$python" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["version"])' "$1"; }
version="$(json_version "$root/package.json")"
py_version="$("$python" -c 'import re,sys; print(re.search(r"^\s*version\s*=\s*\"([^\"]+)\"", open(sys.argv[1]).read(), re.M).group(1))' "$root/plugin-sdks/python/pyproject.toml")"
for pair in "schema.json:$(json_version "$root/schema.json")" \
  "plugin-sdks/nodejs/package.json:$(json_version "$root/plugin-sdks/nodejs/package.json")" \
  "plugin-sdks/python/pyproject.toml:$py_version"; do
  if [ "${pair#*:}" != "$version" ]; then
    log "${pair%%:*} has version ${pair#*:}, package.json $version: run npm run schema && npm run codegen"
    exit 1
  fi
done

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

if [ "$nodejs" = 1 ]; then
  log "TypeScript SDK $version: compiling and packing"
  built="$(bash "$here/build-plugin-sdk.sh" "$scratch/nodejs")"
  tarball="$(cd "$built" && bash "$here/with-node.sh" npm pack --silent --pack-destination "$out_dir" 2>/dev/null | tail -n 1)"
  echo "$out_dir/$tarball"
fi

if [ "$py" = 1 ]; then
  command -v "$python" >/dev/null 2>&1 || { log "Python 3.9 or newer is required (apt-get install python3-venv)"; exit 1; }
  pyver="$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  tools="$cache_root/python-build-v$BUILD_VERSION-py$pyver"
  if [ ! -f "$tools/.complete" ]; then
    log "creating $tools (PyPA build $BUILD_VERSION from PyPI)"
    rm -rf "$tools"
    "$python" -m venv "$tools"
    "$tools/bin/python" -m pip install --quiet --disable-pip-version-check "build==$BUILD_VERSION" >&2
    touch "$tools/.complete"
  fi
  log "Python SDK $version: building the sdist and the wheel"
  cp -r "$root/plugin-sdks/python" "$scratch/python"
  rm -rf "$scratch/python/build" "$scratch/python"/*.egg-info
  # pyproject.toml's `readme` is beside it; the generator writes the README into the package.
  cp "$root/plugin-sdks/python/pulumi_devplatform/README.md" "$scratch/python/README.md"
  "$tools/bin/python" -m build --sdist --wheel --outdir "$scratch/python-dist" "$scratch/python" >"$scratch/build.log" 2>&1 \
    || { cat "$scratch/build.log" >&2; exit 1; }
  for file in "$scratch/python-dist"/*; do
    case "$(basename "$file")" in
      pulumi_devplatform-"$version"-py3-none-any.whl | pulumi_devplatform-"$version".tar.gz)
        cp "$file" "$out_dir/" && echo "$out_dir/$(basename "$file")" ;;
      *) log "unexpected build output $(basename "$file")"; exit 1 ;;
    esac
  done
fi
