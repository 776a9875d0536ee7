#!/usr/bin/env bash
# Build the Debian packages of the library and the command, with CPack:
#   scripts/build-deb.sh [CMAKE_OPTION...]     e.g. -DADVLOCK_WITH_MYSQL=OFF
# gives build/deb/libadvlock0_VERSION_ARCH.deb, libadvlock-dev_..., advlock_...
# from a Release build (no tests, no sanitizers) for prefix /usr, in
# build/deb-release (kept, so a second run only rebuilds what changed).
# Install them with: sudo apt install ./build/deb/*.deb
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ADVLOCK_DEB_BUILD_DIR:-$root/build/deb-release}
out=$root/build/deb
jobs=${ADVLOCK_JOBS:-$(nproc 2>/dev/null || echo 2)}

"$root/scripts/install-deps.sh" build deb

# The library goes to /usr/lib/<multiarch>, where the loader looks anyway: no
# RUNPATH in the command. Options given on the command line come last and win.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
  -DADVLOCK_PACKAGE_DEB=ON -DADVLOCK_INSTALL_RPATH=OFF -DADVLOCK_WITH_MYSQL=ON -DADVLOCK_BUILD_MAN=ON \
  -DADVLOCK_BUILD_CLI=ON -DADVLOCK_BUILD_TESTS=OFF -DADVLOCK_BUILD_EXAMPLES=OFF -DADVLOCK_BUILD_FUZZERS=OFF \
  -DADVLOCK_BUILD_BENCHMARKS=OFF -DADVLOCK_SANITIZE= "$@" >/dev/null
cmake --build "$build" -j "$jobs"

rm -rf "$build/cpack" "$out"
(cd "$build" && cpack -G DEB -B "$build/cpack" >/dev/null) || {
  echo "build-deb: cpack failed; its log: $build/cpack/_CPack_Packages/*/DEB/*.log" >&2
  exit 1
}
mkdir -p "$out"
mv "$build"/cpack/*.deb "$out/"
echo "build-deb: packages in $out:"
for deb in "$out"/*.deb; do
  echo "  $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"
done
