#!/usr/bin/env bash
# Run the Python binding's suite with a virtual environment's installed
# advlock, against the servers scripts/with-postgres.sh and with-mariadb.sh
# started (ADVLOCK_TEST_PG_URL, ADVLOCK_TEST_MYSQL_URL). Where
# scripts/without-host-client-libs.sh can run, the installed wheel is checked
# with the host's libpq and MariaDB client hidden (tests/wheel_check.py, then
# every test but those whose own tools load the host's libpq: marker
# host_libpq), and the host_libpq tests run outside the hiding; elsewhere the
# whole suite runs as is and the hiding is reported skipped.
#
#   scripts/python-suite.sh VENV [PYTEST_ARGS...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${1:?usage: python-suite.sh VENV [PYTEST_ARGS...]}
shift
: "${ADVLOCK_TEST_PG_URL:?python-suite: run under scripts/with-postgres.sh}"
: "${ADVLOCK_TEST_MYSQL_URL:?python-suite: run under scripts/with-mariadb.sh}"
python="$venv/bin/python"
hide="$root/scripts/without-host-client-libs.sh"
cd "$root/bindings/python"

if ! why=$("$hide" --check); then
  echo "SKIPPED: hiding the host's libpq and MariaDB client ($why); the whole suite runs with them"
  exec "$python" -m pytest "$@"
fi
# The probe that the hidden run relies on works: outside, the host libraries load.
"$python" tests/wheel_check.py --expect-host-libs "$ADVLOCK_TEST_PG_URL" "$ADVLOCK_TEST_MYSQL_URL"
# psycopg (the tests' admin connection) must use its own libpq: the binary one.
"$hide" -- env PSYCOPG_IMPL=binary "$python" tests/wheel_check.py "$ADVLOCK_TEST_PG_URL" "$ADVLOCK_TEST_MYSQL_URL"
status=0
"$hide" -- env PSYCOPG_IMPL=binary "$python" -m pytest -m "not host_libpq" "$@" || status=1
echo "-- the host_libpq tests, with the host's libpq visible --"
"$python" -m pytest -m host_libpq "$@" || status=1
exit $status
