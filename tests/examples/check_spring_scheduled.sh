#!/usr/bin/env bash
# check_spring_scheduled.sh PG_STATE_DIR
# examples/spring-scheduled, built: a first instance holds daily_sales
# (@SchedulerLock on the AdvlockLockProvider) and logs its daily_summary run;
# a second instance meanwhile skips daily_sales (ShedLock's "It's locked"),
# and skips daily_summary while a psql session holds its key 7001, writing
# nothing. Then the first is killed with SIGKILL: the server frees its lock,
# and a third instance runs daily_sales. Every wait is "until something is seen".
set -euo pipefail
state=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
app="$root/examples/spring-scheduled/spring-scheduled.sh"
url=$(cat "$state/url") port=$(cat "$state/port")
DB_PASSWORD=$(cat "$state/password")
export DB_PASSWORD
jdbc="jdbc:postgresql://127.0.0.1:$port/postgres"
out=$(mktemp -d /tmp/advlock-spring-example.XXXXXX)
pids=()
# The psql holder's backend would sleep on with its lock after its client is
# killed (the server does not notice a gone client mid-statement): end it too.
cleanup() {
  { for p in "${pids[@]}"; do kill -9 "$p" || true; done; wait; } 2>/dev/null  # quietly: no "Killed" lines
  psql "$url" -qAtc "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'check_spring_holder'" >/dev/null || true
  rm -rf "$out"
}
trap cleanup EXIT

# start NAME SECONDS: an instance whose daily_sales works SECONDS, output in $out/NAME.
start() {
  "$app" "$jdbc" postgres "$2" >"$out/$1" 2>&1 &
  pids+=($!)
  eval "$1=\$!"
}

# wait_for NAME TEXT: until instance NAME's output shows TEXT, failing if it ends first.
wait_for() {
  until grep -qF "$2" "$out/$1" 2>/dev/null; do  # the file appears once the instance starts
    kill -0 "${!1}" 2>/dev/null || { echo "$1 instance ended before \"$2\":"; cat "$out/$1"; exit 1; }
    sleep 0.05
  done
}

# expect NAME TEXT WHY: instance NAME's output has TEXT, else fail saying WHY.
expect() {
  grep -qF "$2" "$out/$1" || { echo "$1 instance: $3:"; cat "$out/$1"; exit 1; }
}

# Each job says once what it did: wait for that, then look at which it was.
start first 3600
wait_for first "daily_sales: holding the lock"
wait_for first "daily_summary: "
expect first "daily_summary: logged this run" "skipped daily_summary"
rows=$(psql "$url" -Atc "SELECT count(*) FROM batch_execution_log")

PGAPPNAME=check_spring_holder psql "$url" -qAtc "SELECT pg_advisory_lock(7001)" -c "SELECT pg_sleep(3600)" >/dev/null &
pids+=($!)
until [ "$(psql "$url" -Atc "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = 7001 AND objsubid = 1 AND granted")" = 1 ]; do
  sleep 0.05
done
start second 0
wait_for second "'daily_sales'"
wait_for second "daily_summary: "
kill "$second"
grep -E "daily_" "$out/second" | grep -v DEBUG
expect second "Not executing 'daily_sales'. It's locked." "ran daily_sales while the first held it"
expect second "daily_summary: another run holds the lock, skipping" "ran daily_summary while psql held 7001"
[ "$(psql "$url" -Atc "SELECT count(*) FROM batch_execution_log")" = "$rows" ] || { echo "the skipped daily_summary wrote"; exit 1; }

{ kill -9 "$first"; wait "$first"; } 2>/dev/null || true
# The server frees the lock when it sees the dead client's connection close.
until [ "$(psql "$url" -Atc "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 4138705131 AND objid = 377420741 AND objsubid = 1")" = 0 ]; do
  sleep 0.05
done
start third 0
wait_for third "'daily_sales'"
kill "$third"
expect third "Locked 'daily_sales'" "did not get daily_sales after the holder died"
echo "first held daily_sales, second skipped it and daily_summary, first killed -9, third ran"
