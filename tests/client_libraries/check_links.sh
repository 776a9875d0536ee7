#!/usr/bin/env bash
# client_libraries.links: libadvlock.so and the advlock command link neither
# libpq nor libmariadb (core/client_libraries loads them when a session needs
# them), so a `--db local` run maps none of them and what they pull in.
#
#   check_links.sh LIBADVLOCK ADVLOCK
set -uo pipefail
failed=0
for binary in "$@"; do
  needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  if grep -qE 'libpq|libmariadb' <<<"$needed"; then
    echo "FAIL: $binary links a client library itself (NEEDED: $needed)"
    failed=1
  else
    echo "ok: $binary links no client library (NEEDED: $needed)"
  fi
done
exit $failed
