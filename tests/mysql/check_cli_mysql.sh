#!/usr/bin/env bash
# The advlock command on MySQL, only the URL differs: a second run of a job
# skips (exit 3, naming the holder) while the first holds the lock, status
# lists the holder, and the job runs again once the first is done.
#   check_cli_mysql.sh ADVLOCK_BINARY MARIADB_STATE_DIR
set -euo pipefail
advlock=$1
url=$(cat "$2/url")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
name="cli_job_$$"

"$advlock" run --db "$url" --name "$name" -- sh -c "touch '$work/started'; while [ ! -e '$work/finish' ]; do sleep 0.05; done" &
first=$!
while [ ! -e "$work/started" ]; do sleep 0.05; done

status=0
"$advlock" run --db "$url" --name "$name" -- touch "$work/second-ran" 2>"$work/second.err" || status=$?
[ "$status" -eq 3 ] || { echo "second run: exit $status, expected 3"; cat "$work/second.err"; exit 1; }
[ ! -e "$work/second-ran" ] || { echo "second run ran its command"; exit 1; }
grep -q "$name is held by pid" "$work/second.err" || { echo "no holder named:"; cat "$work/second.err"; exit 1; }

"$advlock" status --db "$url" --name "$name" >"$work/status.out" 2>"$work/status.err"
grep -q "^$name .* holds" "$work/status.out" || { echo "status did not list the holder:"; cat "$work/status.out"; exit 1; }
grep -q "note: MariaDB shows holders only" "$work/status.err" || { echo "status gave no note:"; cat "$work/status.err"; exit 1; }

touch "$work/finish"
wait "$first"
"$advlock" run --db "$url" --name "$name" -- touch "$work/third-ran"
[ -e "$work/third-ran" ] || { echo "third run did not run"; exit 1; }
echo "advlock run/status on MySQL: skip while held (exit 3), holder listed, runs again after"
