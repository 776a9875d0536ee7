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

# wait_for FILE TEXT PID: until FILE shows TEXT, failing if PID ends first.
wait_for() {
  until grep -qF "$2" "$1" 2>/dev/null; do  # the file appears once the instance starts
    kill -0 "$3" 2>/dev/null || { echo "instance ended before \"$2\":"; cat "$1"; exit 1; }
    sleep 0.05
  done
}

"$app" "$jdbc" postgres 3600 >"$out/first" 2>&1 &
first=$!
pids+=("$first")
wait_for "$out/first" "daily_sales: holding the lock" "$first"
wait_for "$out/first" "daily_summary: " "$first"
grep -q "daily_summary: logged this run" "$out/first" || { echo "first instance skipped daily_summary:"; cat "$out/first"; exit 1; }
rows=$(psql "$url" -Atc "SELECT count(*) FROM batch_execution_log")

PGAPPNAME=check_spring_holder psql "$url" -qAtc "SELECT pg_advisory_lock(7001)" -c "SELECT pg_sleep(3600)" >/dev/null &
pids+=($!)
until [ "$(psql "$url" -Atc "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = 7001 AND objsubid = 1 AND granted")" = 1 ]; do
  sleep 0.05
done
"$app" "$jdbc" postgres 0 >"$out/second" 2>&1 &
second=$!
pids+=("$second")
# Each job says once what it did: wait for that, then look at which it was.
wait_for "$out/second" "'daily_sales'" "$second"
wait_for "$out/second" "daily_summary: " "$second"
kill "$second"
grep -E "daily_" "$out/second" | grep -v DEBUG
grep -qF "Not executing 'daily_sales'. It's locked." "$out/second" || { echo "second instance ran daily_sales:"; cat "$out/second"; exit 1; }
grep -q "daily_summary: another run holds the lock, skipping" "$out/second" || { echo "second instance ran daily_summary"; exit 1; }
[ "$(psql "$url" -Atc "SELECT count(*) FROM batch_execution_log")" = "$rows" ] || { echo "the skipped daily_summary wrote"; exit 1; }

kill -9 "$first"
wait "$first" 2>/dev/null || true
# The server frees the lock when it sees the dead client's connection close.
until [ "$(psql "$url" -Atc "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 4138705131 AND objid = 377420741 AND objsubid = 1")" = 0 ]; do
  sleep 0.05
done
"$app" "$jdbc" postgres 0 >"$out/third" 2>&1 &
third=$!
pids+=("$third")
wait_for "$out/third" "'daily_sales'" "$third"
kill "$third"
grep -qF "Locked 'daily_sales'" "$out/third" || { echo "third instance did not get daily_sales:"; cat "$out/third"; exit 1; }
echo "first held daily_sales, second skipped it and daily_summary, first killed -9, third ran"
