#!/usr/bin/env bash
# Build and install the advlock command of an earlier commit of this clone, so
# that start-up can be compared against it in the same run: issue 23 asks
# PostgreSQL start-up to be "no slower than today", and "today" is the commit
# before libpq and libmariadb were loaded lazily. A figure from another day or
# machine cannot answer that; the old build timed beside the new one can.
#
#   bench/startup/install-before.sh COMMIT BUILD_DIR PREFIX
#
# Exits 3 (and says why) when COMMIT is not in this clone's history (a
# shallow clone): the caller leaves the row out.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -eq 3 ] || { echo "usage: install-before.sh COMMIT BUILD_DIR PREFIX" >&2; exit 64; }
commit=$1 build=$2 prefix=$3

if ! git -C "$root" cat-file -e "$commit^{commit}" 2>/dev/null; then
  echo "install-before.sh: commit $commit is not in this clone (shallow?); fetch the history to compare" >&2
  exit 3
fi
source_dir="$build/source"
rm -rf "$source_dir" "$prefix"
mkdir -p "$source_dir"
git -C "$root" archive "$commit" | tar -x -C "$source_dir"  # the tree only: no worktree left behind
cmake -S "$source_dir" -B "$build/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build/build" --target advlock advlock_cli advlock_man >/dev/null
for component in runtime cli; do
  cmake --install "$build/build" --prefix "$prefix" --component "$component" >/dev/null
done
