#!/usr/bin/env bash
# check_java_transaction_example.sh PG_STATE_DIR
# examples/java-batch's MonthlyClose takes its transaction-scoped lock and
# commits its work; while a psql session holds the same pair key (100, 2) it
# skips and writes nothing.
set -euo pipefail
state=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
jar="$root/examples/java-batch/target/daily-sales.jar"
url=$(cat "$state/url") port=$(cat "$state/port") password=$(cat "$state/password")
jdbc="jdbc:postgresql://127.0.0.1:$port/postgres"
holder=""
trap '[ -n "$holder" ] && kill "$holder" 2>/dev/null; true' EXIT

out=$(java -cp "$jar" example.MonthlyClose "$jdbc" postgres "$password")
echo "$out"
[ "$out" = "monthly_close: closed the month" ]
before=$(psql "$url" -Atc "SELECT count(*) FROM monthly_close_runs")

psql "$url" -qAtc "SELECT pg_advisory_lock(100, 2)" -c "SELECT pg_sleep(3600)" >/dev/null &
holder=$!
until [ "$(psql "$url" -Atc "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 100 AND objid = 2 AND granted")" = 1 ]; do
  sleep 0.05
done
out=$(java -cp "$jar" example.MonthlyClose "$jdbc" postgres "$password")
echo "$out"
[ "$out" = "monthly_close: another run holds the lock, skipping" ]
[ "$(psql "$url" -Atc "SELECT count(*) FROM monthly_close_runs")" = "$before" ]
echo "MonthlyClose committed with its lock, and skipped while another session held it"
