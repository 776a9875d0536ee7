#!/usr/bin/env bash
# Build what goes to PyPI: the sdist and, for each Python given (default:
# python3), a repaired manylinux wheel, into build/python-dist/.
#
#   scripts/build-python-dist.sh [PYTHON...]
#
# The sdist carries the C library's sources (scripts/python-sdist.sh) and
# builds with `pip wheel advlock-X.tar.gz` anywhere; each wheel is built from
# it and carries libpq and the MariaDB client (scripts/python-wheel.sh).
# Needs: scripts/install-deps.sh build python (a C++17 compiler, CMake,
# libpq-dev, libmariadb-dev, patchelf) and PyPI access (pip).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build/python-dist"
[ $# -gt 0 ] || set -- python3

sdist=$("$root/scripts/python-sdist.sh" "$out")
rm -f "$out"/advlock-*.whl
for python in "$@"; do
  command -v "$python" >/dev/null || { echo "build-python-dist: $python not found" >&2; exit 69; }
  # A throwaway virtual environment: it has pip, whatever the interpreter's packaging.
  venv=$(mktemp -d "${TMPDIR:-/tmp}/advlock-dist-venv.XXXXXX")
  "$python" -m venv "$venv"
  "$root/scripts/python-wheel.sh" "$venv/bin/python" "$sdist" "$out" >/dev/null || { rm -rf "$venv"; exit 1; }
  rm -rf "$venv"
done
for f in "$out"/advlock-*; do
  echo "$f ($(du -k "$f" | cut -f1) KiB)"
done
