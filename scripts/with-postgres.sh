#!/usr/bin/env bash
# Run a command with a throwaway PostgreSQL, stopped afterwards whatever the
# command's outcome (and on Ctrl-C). The command sees the PG* variables,
# ADVLOCK_TEST_PG_URL, and ADVLOCK_TEST_PG_STATE (the state directory).
#
#   scripts/with-postgres.sh [-c name=value ...] -- COMMAND [ARGS...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
settings=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do settings+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "usage: with-postgres.sh [-c name=value ...] -- COMMAND [ARGS...]" >&2; exit 64; }

state=$(mktemp -d /tmp/advlock-pg-state.XXXXXX)
trap '"$here/pg-stop.sh" "$state"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
"$here/pg-start.sh" "$state" "${settings[@]}" >&2
# shellcheck disable=SC1091
source "$state/env"
export ADVLOCK_TEST_PG_STATE="$state"
status=0
"$@" || status=$?
exit $status
