#!/usr/bin/env bash
# check_skip_if_running.sh PROGRAM PG_STATE_DIR
# A first run holds the daily_sales lock; a second run meanwhile must skip with
# exit code 3. Then the first run is killed with SIGKILL: its lock must be freed
# by the server, and a third run must get it. Nothing here depends on timing:
# every wait is "until something is seen".
set -euo pipefail
program=$1 url=$(cat "$2/url")
out=$(mktemp -d /tmp/advlock-example.XXXXXX)
holder=""
trap '[ -n "$holder" ] && kill -9 "$holder" 2>/dev/null; rm -rf "$out"' EXIT

"$program" "$url" 3600 >"$out/first" 2>&1 &
holder=$!
until grep -q "holding the lock" "$out/first"; do
  kill -0 "$holder" 2>/dev/null || { echo "first run ended early:"; cat "$out/first"; exit 1; }
  sleep 0.05
done

status=0
"$program" "$url" 0 >"$out/second" 2>&1 || status=$?
cat "$out/second"
[ "$status" -eq 3 ] || { echo "second run: exit $status, expected 3 (skip)"; exit 1; }
grep -q "already running elsewhere, skipping" "$out/second"

kill -9 "$holder"
wait "$holder" 2>/dev/null || true
holder=""
# The server frees the lock when it sees the dead client's connection close.
until [ "$(psql "$url" -Atc "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 4138705131 AND objid = 377420741 AND objsubid = 1")" = 0 ]; do
  sleep 0.05
done
"$program" "$url" 0 >"$out/third" 2>&1 || { echo "third run failed:"; cat "$out/third"; exit 1; }
grep -q "holding the lock" "$out/third"
echo "first held, second skipped with exit 3, first killed -9, third ran"
