#!/usr/bin/env bash
# The advlock demo, on a throwaway PostgreSQL:
#   1. a lock name becomes a key, and psql computes the same key;
#   2. a job started by `advlock run` holds the lock; a second start of the same
#      job skips with exit code 3 and names the holder; `advlock status` shows it;
#   3. the holder's server session is terminated: advlock notices at once, stops
#      the job and exits 75; the next start runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "Installing what the build needs (only what is missing)"
"$root/scripts/install-deps.sh" build postgres

say "Building libadvlock, the advlock command and the examples"
build="$root/build/demo"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DADVLOCK_BUILD_EXAMPLES=ON -DADVLOCK_BUILD_CLI=ON >/dev/null
cmake --build "$build" >/dev/null
advlock="$build/cli/advlock"
echo "built $(ls "$build"/capi/libadvlock.so.*.*.* | xargs -n1 basename) and $("$advlock" --version)"

say "Starting a throwaway PostgreSQL"
state=$(mktemp -d /tmp/advlock-demo.XXXXXX)
work=$(mktemp -d /tmp/advlock-demo-work.XXXXXX)
holder=""
cleanup() {
  [ -n "$holder" ] && kill "$holder" 2>/dev/null || true
  "$root/scripts/pg-stop.sh" "$state"
  rm -rf "$work"
}
trap cleanup EXIT
"$root/scripts/pg-start.sh" "$state"
url=$(cat "$state/url")

say "1. A lock name becomes a key (the frozen advlock scheme)"
echo "\$ advlock key daily_sales"
"$advlock" key daily_sales | sed 's/^/  /'
echo "the server computes: $(psql "$url" -Atc "$("$advlock" key daily_sales --sql)")"

say "2. The nightly job starts: advlock run --db URL --registry examples/cron/advlock-registry.toml --name daily_sales -- job"
cat >"$work/job.sh" <<'JOB'
#!/bin/sh
echo "daily_sales: working (pid $$)"
trap 'echo "daily_sales: got SIGTERM, stopping"; exit 143' TERM
while :; do sleep 0.1; done
JOB
chmod +x "$work/job.sh"
"$advlock" run --db "$url" --registry "$root/examples/cron/advlock-registry.toml" --name daily_sales -- "$work/job.sh" >"$work/run1.log" 2>&1 &
holder=$!
until grep -q "working" "$work/run1.log"; do
  kill -0 "$holder" 2>/dev/null || { cat "$work/run1.log"; exit 1; }
  sleep 0.05
done
sed 's/^/  run 1: /' "$work/run1.log"

say "A second start of the same job meanwhile (as cron would, on any host)"
status=0
"$advlock" run --db "$url" --registry "$root/examples/cron/advlock-registry.toml" --name daily_sales -- "$work/job.sh" 2>&1 | sed 's/^/  run 2: /' || status=${PIPESTATUS[0]}
echo "  run 2 exited with $status (3: already running elsewhere; the job did not start)"

say "advlock status"
"$advlock" status --db "$url" --registry "$root/examples/cron/advlock-registry.toml" | sed 's/^/  /'

say "3. The holder's server session is terminated (failover, DBA, idle timeout...)"
pid=$(psql "$url" -Atc "SELECT pid FROM pg_stat_activity WHERE application_name = 'advlock run job.sh'")
psql "$url" -Atc "SELECT pg_terminate_backend($pid)" >/dev/null
echo "  SELECT pg_terminate_backend($pid)"
status=0
wait "$holder" || status=$?
holder=""
sed 's/^/  run 1: /' "$work/run1.log"
echo "  run 1 exited with $status (75: the lock was lost, so advlock stopped the job)"

say "The next start runs"
"$advlock" run --db "$url" --registry "$root/examples/cron/advlock-registry.toml" --name daily_sales -- sh -c 'echo "daily_sales: working"; exit 0' 2>&1 | sed 's/^/  run 3: /'
echo
echo "Done. The throwaway server is stopped and removed."
