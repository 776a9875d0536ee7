#!/usr/bin/env bash
# Stop a PgBouncer started by scripts/pgbouncer-start.sh STATE_DIR and delete its files.
set -euo pipefail
state=${1:?usage: pgbouncer-stop.sh STATE_DIR}
[ -d "$state" ] || exit 0
base=$(cat "$state/base_dir" 2>/dev/null || true)
if [ -n "$base" ] && [ -f "$base/pgbouncer.pid" ]; then
  pid=$(cat "$base/pgbouncer.pid")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  kill -9 "$pid" 2>/dev/null || true
fi
case "$base" in
  /tmp/advlock-pgbouncer.*) rm -rf "$base" ;;
esac
rm -f "$state"/{url,port,base_dir}
rmdir "$state" 2>/dev/null || true
