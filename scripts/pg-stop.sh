#!/usr/bin/env bash
# Stop a server started by scripts/pg-start.sh STATE_DIR and delete its files.
# Safe to call twice, or when the start failed half-way.
set -euo pipefail
state=${1:?usage: pg-stop.sh STATE_DIR}
[ -d "$state" ] || exit 0
base=$(cat "$state/base_dir" 2>/dev/null || true)
data=$(cat "$state/data_dir" 2>/dev/null || true)
bin=$(cat "$state/bin_dir" 2>/dev/null || true)
if [ -n "$data" ] && [ -n "$bin" ] && [ -f "$data/postmaster.pid" ]; then
  as_server=()
  [ "$(id -u)" -eq 0 ] && as_server=(runuser -u postgres --)
  "${as_server[@]}" "$bin/pg_ctl" -D "$data" -m immediate -w -t 30 stop >/dev/null 2>&1 || {
    # pg_ctl could not: end the postmaster by its pid file.
    pid=$(head -n 1 "$data/postmaster.pid" 2>/dev/null || true)
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
  }
fi
case "$base" in
  /tmp/advlock-pg.*) rm -rf "$base" ;;
esac
rm -f "$state"/{url,port,host,password,socket_dir,data_dir,bin_dir,base_dir,env}
rmdir "$state" 2>/dev/null || true
