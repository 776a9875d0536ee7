#!/usr/bin/env bash
# Run a command with a throwaway MariaDB (scripts/mariadb-start.sh), stopped
# afterwards whatever the command's outcome (and on Ctrl-C). The command sees
# ADVLOCK_TEST_MYSQL_URL and ADVLOCK_TEST_MYSQL_STATE (the state directory,
# whose socket file names the server's Unix socket for root access).
#
#   scripts/with-mariadb.sh [--option=value ...] -- COMMAND [ARGS...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
options=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do options+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "usage: with-mariadb.sh [--option=value ...] -- COMMAND [ARGS...]" >&2; exit 64; }

state=$(mktemp -d /tmp/advlock-mariadb-state.XXXXXX)
trap '"$here/mariadb-stop.sh" "$state"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
"$here/mariadb-start.sh" "$state" "${options[@]}" >&2
# shellcheck disable=SC1091
source "$state/env"
export ADVLOCK_TEST_MYSQL_STATE="$state"
status=0
"$@" || status=$?
exit $status
