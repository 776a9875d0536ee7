#!/usr/bin/env bash
# Build the HTML reference of the C API (docs/reference/Doxyfile) into
# OUTDIR/html; OUTDIR defaults to build/reference. Fails, listing them, on any
# Doxygen warning: an undocumented declaration in the C headers is one.
#
#   docs/reference/build.sh [OUTDIR]      # then open OUTDIR/html/index.html
#
# DOXYGEN names the doxygen binary (default: doxygen on the PATH). Exits 77
# (what the ctest test docs.reference treats as skipped) when there is none:
# scripts/install-deps.sh test installs it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build/reference}
doxygen=${DOXYGEN:-doxygen}
case "$doxygen" in *-NOTFOUND) doxygen= ;; esac

if [ -z "$doxygen" ] || ! command -v "$doxygen" >/dev/null; then
  echo "reference: skipped: doxygen not found${doxygen:+ ($doxygen)}; scripts/install-deps.sh test installs it" >&2
  exit 77
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
version=$(sed -n 's/^#define ADVLOCK_VERSION "\(.*\)"$/\1/p' "$root/capi/include/advlock/version.h")
cd "$root"
# Doxygen reads the configuration from stdin ("-"); the last setting of a tag wins.
if ! { cat docs/reference/Doxyfile; echo "OUTPUT_DIRECTORY = $out"; echo "PROJECT_NUMBER = $version"; } |
  "$doxygen" -; then
  echo "reference: doxygen failed (see the warnings above: each is an error)" >&2
  exit 1
fi
echo "reference: $out/html/index.html"
