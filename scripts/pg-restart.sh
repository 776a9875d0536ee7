#!/usr/bin/env bash
# Restart a server started by scripts/pg-start.sh STATE_DIR, in shutdown mode
# fast (sessions are told, then ended) or immediate (processes are killed).
#
#   scripts/pg-restart.sh STATE_DIR fast|immediate
set -euo pipefail
state=${1:?usage: pg-restart.sh STATE_DIR fast|immediate}
mode=${2:?usage: pg-restart.sh STATE_DIR fast|immediate}
case "$mode" in fast|immediate) ;; *) echo "pg-restart: mode must be fast or immediate" >&2; exit 64 ;; esac
as_server=()
[ "$(id -u)" -eq 0 ] && as_server=(runuser -u postgres --)
"${as_server[@]}" "$(cat "$state/bin_dir")/pg_ctl" -D "$(cat "$state/data_dir")" -m "$mode" -w -t 60 \
  -l "$(cat "$state/base_dir")/server.log" restart >/dev/null
