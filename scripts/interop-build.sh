#!/usr/bin/env bash
# Configure build/interop (RelWithDebInfo with line tables only, no sanitizer) and build the given
# targets in it. One configuration for the suites that need a plain build of
# the library or the command, so test-ruby.sh's libadvlock is the one
# test-interop.sh links afterwards (built once).
#
#   scripts/interop-build.sh TARGET...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || { echo "usage: interop-build.sh TARGET..." >&2; exit 64; }
build="$root/build/interop"
cmake -S "$root" -B "$build" -G Ninja -C "$root/cmake/TestBuildFlags.cmake" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DADVLOCK_BUILD_TESTS=ON >/dev/null
cmake --build "$build" -j 2 --target "$@" >/dev/null
