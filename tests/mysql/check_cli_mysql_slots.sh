#!/usr/bin/env bash
# advlock run --slots on MySQL/MariaDB, only the URL differs: slots are
# key-only locks ("advlock:<slot key>"), so two runs of --slots 2 hold slots 1
# and 2, a third skips (exit 3) naming the holder of each, status --slots lists
# both; and --fence, which needs PostgreSQL, is refused with exit 78.
#   check_cli_mysql_slots.sh ADVLOCK_BINARY MARIADB_STATE_DIR
set -euo pipefail
advlock=$1
url=$(cat "$2/url")
work=$(mktemp -d)
pids=()
trap 'touch "$work/finish"; wait "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
name="cli_slots_$$"

# Each job writes its slot (atomically: mv) and runs until told to finish.
for i in 1 2; do
  "$advlock" run --db "$url" --slots 2 --name "$name" -- sh -c \
    "echo \"\$ADVLOCK_SLOT of \$ADVLOCK_SLOTS\" >'$work/tmp-$i'; mv '$work/tmp-$i' '$work/slot-$i'; while [ ! -e '$work/finish' ]; do sleep 0.05; done" &
  pids+=($!)
  while [ ! -e "$work/slot-$i" ]; do sleep 0.05; done
done
slots=$(cat "$work/slot-1" "$work/slot-2" | sort | tr '\n' ' ')
[ "$slots" = "1 of 2 2 of 2 " ] || { echo "the two runs got slots: $slots"; exit 1; }

status=0
"$advlock" run --db "$url" --slots 2 --name "$name" -- touch "$work/third-ran" 2>"$work/third.err" || status=$?
[ "$status" -eq 3 ] || { echo "third run: exit $status, expected 3"; cat "$work/third.err"; exit 1; }
[ ! -e "$work/third-ran" ] || { echo "third run ran its command"; exit 1; }
grep -q "every slot of $name is held (2 slots)" "$work/third.err" || { echo "no 'every slot':"; cat "$work/third.err"; exit 1; }
for slot in 1 2; do
  grep -q "$name slot $slot is held by pid" "$work/third.err" || { echo "slot $slot's holder not named:"; cat "$work/third.err"; exit 1; }
done

"$advlock" status --db "$url" --name "$name" --slots 2 >"$work/status.out" 2>"$work/status.err"
[ "$(grep -c " holds " "$work/status.out")" -eq 2 ] || { echo "status --slots did not list both:"; cat "$work/status.out" "$work/status.err"; exit 1; }

status=0
"$advlock" run --db "$url" --fence --name "$name-fenced" -- true 2>"$work/fence.err" || status=$?
[ "$status" -eq 78 ] || { echo "--fence on MySQL: exit $status, expected 78"; cat "$work/fence.err"; exit 1; }
grep -q "PostgreSQL" "$work/fence.err" || { echo "--fence refusal does not say why:"; cat "$work/fence.err"; exit 1; }
echo "advlock run --slots on MySQL: two slots held, a third skips naming both holders; --fence refused (78)"
