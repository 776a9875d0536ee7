#!/usr/bin/env bash
# The advlock demo: build the library and its examples, start a throwaway
# PostgreSQL, show how a lock name becomes a key (and that psql agrees), then
# run the same job twice at once: the second start skips while the first holds
# the lock, and a start after the first finished runs again.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "Installing what the build needs (only what is missing)"
"$root/scripts/install-deps.sh" build postgres

say "Building libadvlock and the examples"
build="$root/build/demo"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DADVLOCK_BUILD_EXAMPLES=ON >/dev/null
cmake --build "$build" >/dev/null
echo "built $(ls "$build"/capi/libadvlock.so.*.*.* | xargs -n1 basename)"

say "Starting a throwaway PostgreSQL"
state=$(mktemp -d /tmp/advlock-demo.XXXXXX)
holder=""
cleanup() {
  [ -n "$holder" ] && kill "$holder" 2>/dev/null || true
  "$root/scripts/pg-stop.sh" "$state"
}
trap cleanup EXIT
"$root/scripts/pg-start.sh" "$state"
url=$(cat "$state/url")

say "A lock name becomes a key (frozen advlock scheme)"
"$build/examples/show_key" daily_sales
sql=$("$build/examples/show_key" daily_sales | sed -n 's/^psql: //p')
echo "the same expression run by the server: $(psql "$url" -Atc "$sql")"

say "Job run 1 starts and holds the lock for 4 seconds"
log=$(mktemp /tmp/advlock-demo-run1.XXXXXX)
"$build/examples/skip_if_running" "$url" 4 >"$log" 2>&1 &
holder=$!
until grep -q "holding the lock" "$log"; do
  kill -0 "$holder" 2>/dev/null || { cat "$log"; exit 1; }
  sleep 0.05
done
sed 's/^/  run 1: /' "$log"

say "pg_locks on the server while run 1 works"
psql "$url" -c "SELECT l.classid, l.objid, l.objsubid, l.mode, l.granted, a.application_name
                FROM pg_locks l JOIN pg_stat_activity a USING (pid)
                WHERE l.locktype = 'advisory' AND NOT (l.objsubid = 2 AND l.classid = 1633971307)"  # not advlock's per-session sentinel

say "Job run 2 starts meanwhile: it must skip"
status=0
"$build/examples/skip_if_running" "$url" 0 | sed 's/^/  run 2: /' || status=${PIPESTATUS[0]}
echo "  run 2 exited with $status (3 = already running elsewhere)"

say "Waiting for run 1 to finish"
wait "$holder"
holder=""
sed 's/^/  run 1: /' "$log"
rm -f "$log"
echo "  run 1 exited with 0 and released the lock"

say "Job run 3 starts after run 1: it runs"
"$build/examples/skip_if_running" "$url" 0 | sed 's/^/  run 3: /'
echo
echo "Done. The throwaway server is stopped and removed."
