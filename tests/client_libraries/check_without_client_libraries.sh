#!/usr/bin/env bash
# client_libraries.without_them: on a host without libpq and MariaDB
# Connector/C (scripts/without-host-client-libs.sh hides them), the command
# still runs `--db local` jobs, and a PostgreSQL or MySQL URL fails with exit
# 78 and a message naming the package to install, the password left out.
# Skipped (exit 77, saying why) where the libraries cannot be hidden.
#
#   check_without_client_libraries.sh SOURCE_DIR ADVLOCK WITH_MYSQL(0|1)
set -uo pipefail
source_dir=$1 advlock=$2 with_mysql=$3
hide=$source_dir/scripts/without-host-client-libs.sh
if ! why=$("$hide" --check); then
  echo "skipped: cannot hide the client libraries here: $why"
  exit 77
fi
work=$(mktemp -d /tmp/advlock-no-clients.XXXXXX)
trap 'rm -rf "$work"' EXIT
failed=0
check() {  # check DESCRIPTION WANTED_EXIT WANTED_TEXT -- COMMAND...
  local what=$1 wanted_exit=$2 wanted_text=$3; shift 4
  local status=0
  "$hide" -- "$@" >"$work/out" 2>&1 || status=$?
  if [ "$status" -ne "$wanted_exit" ] || ! grep -qF -- "$wanted_text" "$work/out" || grep -q 's3cret' "$work/out"; then
    echo "FAIL: $what: exit $status (wanted $wanted_exit), output (wanted \"$wanted_text\", no password):"
    sed 's/^/  | /' "$work/out"
    failed=1
  else
    echo "ok: $what"
  fi
}
mkdir -m 700 "$work/locks"
check "--db local runs the job" 0 "ran" -- \
  "$advlock" run --db "local:$work/locks" --name job -- echo ran
check "a PostgreSQL URL names libpq's package" 78 "apt-get install libpq5" -- \
  "$advlock" run --db "postgresql://app:s3cret@127.0.0.1:9/db" --name job -- echo ran
if [ "$with_mysql" = 1 ]; then
  check "a MySQL URL names MariaDB Connector/C's package" 78 "apt-get install libmariadb3" -- \
    "$advlock" run --db "mysql://app:s3cret@127.0.0.1:9/db" --name job -- echo ran
fi
exit $failed
