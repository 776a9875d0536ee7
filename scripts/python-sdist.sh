#!/usr/bin/env bash
# Make the Python sdist, one that builds far from any checkout:
#
#   scripts/python-sdist.sh OUT_DIR     (prints the path of OUT_DIR/advlock-X.tar.gz)
#
# bindings/python compiles the C library from the repository around it, which
# an sdist of that directory alone would lack. So the sdist is made from a
# staged tree: bindings/python's files plus, in advlock-src/, what the
# extension compiles (top-level CMakeLists.txt, core/, capi/, cmake/) and
# LICENSE. bindings/python/CMakeLists.txt and pyproject.toml look in
# advlock-src/ first. Only files git tracks are staged (their working-tree
# content), so build output never travels. Nothing staged is committed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: python-sdist.sh OUT_DIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage="$out/stage"
tools="$root/build/python/tools-venv"

"$root/scripts/python-tools-venv.sh" "$tools" >&2

rm -rf "$stage"
mkdir -p "$stage/advlock-src"
# copy_tracked DEST PATH...: the tracked files under each PATH, to DEST.
copy_tracked() {
  local dest=$1; shift
  (cd "$root" && git ls-files -z -- "$@") | (cd "$root" && xargs -0 cp --parents -t "$dest")
}
(cd "$root/bindings/python" && git ls-files -z -- . | xargs -0 cp --parents -t "$stage")
copy_tracked "$stage/advlock-src" CMakeLists.txt core capi cmake LICENSE
cp "$root/LICENSE" "$stage/LICENSE"   # at the top, where wheel metadata takes it from

rm -f "$out"/advlock-*.tar.gz
"$tools/bin/python" -m build --sdist --no-isolation --outdir "$out" "$stage" >&2
rm -rf "$stage"
ls "$out"/advlock-*.tar.gz
