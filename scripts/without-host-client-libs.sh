#!/usr/bin/env bash
# Run a command as on a host without libpq and the MariaDB client library:
# in a private mount namespace, every libpq.so* and libmariadb.so* the loader
# knows of (ldconfig -p) has /dev/null mounted over it, and the MariaDB client
# plugin directory an empty directory, so any attempt to load them fails.
# Nothing changes outside the namespace. Needs root (unshare --mount).
#
#   scripts/without-host-client-libs.sh --check    exit 0 if it can run here, else say why (exit 77)
#   scripts/without-host-client-libs.sh -- COMMAND [ARGS...]
set -euo pipefail

host_libs() {
  ldconfig -p | awk '$1 ~ /^lib(pq|mariadb)\.so/ { print $NF }' | xargs -r realpath | sort -u
}

cannot_run() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "not root: a private mount namespace (unshare --mount) needs root"
  elif ! command -v unshare >/dev/null; then
    echo "unshare not found (util-linux)"
  elif ! unshare --mount true 2>/dev/null; then
    echo "unshare --mount is refused here (no CAP_SYS_ADMIN, e.g. an unprivileged container)"
  elif [ -z "$(host_libs)" ]; then
    echo "no libpq or libmariadb in ldconfig -p: nothing to hide"
  fi
}

case "${1:-}" in
  --check)
    why=$(cannot_run)
    [ -z "$why" ] || { echo "$why"; exit 77; }
    exit 0 ;;
  --) shift ;;
  *) echo "usage: without-host-client-libs.sh --check | -- COMMAND [ARGS...]" >&2; exit 64 ;;
esac
[ $# -gt 0 ] || { echo "usage: without-host-client-libs.sh -- COMMAND [ARGS...]" >&2; exit 64; }
why=$(cannot_run)
[ -z "$why" ] || { echo "without-host-client-libs: $why" >&2; exit 77; }

mapfile -t libs < <(host_libs)
plugin_dirs=()
for lib in "${libs[@]}"; do
  [ -d "$(dirname "$lib")/libmariadb3" ] && plugin_dirs+=("$(dirname "$lib")/libmariadb3")
done
empty=$(mktemp -d /tmp/advlock-empty.XXXXXX)
trap 'rmdir "$empty"' EXIT
# Not exec: the trap removes the empty directory afterwards.
status=0
unshare --mount --propagation private -- bash -euc '
  empty=$1; shift
  while [ "$1" != "--" ]; do
    if [ -d "$1" ]; then mount --bind "$empty" "$1"; else mount --bind /dev/null "$1"; fi
    shift
  done
  shift
  exec "$@"
' bash "$empty" "${libs[@]}" $(printf '%s\n' "${plugin_dirs[@]}" | sort -u) -- "$@" || status=$?
exit $status
