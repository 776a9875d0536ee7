#!/usr/bin/env bash
# Stop a server started by scripts/mariadb-start.sh STATE_DIR and delete its
# files. Safe to call twice, or when the start failed half-way.
set -euo pipefail
state=${1:?usage: mariadb-stop.sh STATE_DIR}
[ -d "$state" ] || exit 0
base=$(cat "$state/base_dir" 2>/dev/null || true)
if [ -n "$base" ] && [ -f "$base/mysqld.pid" ]; then
  pid=$(cat "$base/mysqld.pid")
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
fi
case "$base" in
  /tmp/advlock-mariadb.*) rm -rf "$base" ;;
esac
rm -f "$state"/{url,port,password,socket,pid_file,base_dir,env}
rmdir "$state" 2>/dev/null || true
