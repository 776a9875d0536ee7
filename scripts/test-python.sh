#!/usr/bin/env bash
# Build and test the Python binding the way users get it: the sdist is made
# once (scripts/python-sdist.sh); for each interpreter the wheel is built from
# it by pip far from the checkout and repaired by auditwheel
# (scripts/python-wheel.sh), installed into a fresh virtual environment, and
# tested (scripts/python-suite.sh) against a real, throwaway PostgreSQL
# (scripts/with-postgres.sh) and MariaDB (scripts/with-mariadb.sh, for
# tests/test_mysql.py), with the host's libpq and MariaDB client hidden from
# the loader where that can be done (root: unshare --mount). The suites run
# one after the other on one PostgreSQL and one MariaDB, stopped afterwards
# whatever the outcome; the next interpreter's venv and wheel are built while
# the current one is tested. Compilation goes through ccache
# (build/python/ccache), so the C library is compiled once, not per Python.
#
# The first interpreter (python3 on PATH) runs the whole suite, with psycopg
# in all three implementations (pure Python; "c", built on the system libpq;
# "binary", a wheel with its own libpq: tests/test_xact_drivers.py runs each),
# psycopg2 (built from source on the system libpq) and mypy. Every other
# Python >= 3.9 found on the machine, one per version (python3.9 ... python3.14 on PATH,
# /usr/bin/python3, pyenv's versions) builds its wheel and runs the suite
# without the psycopg2 and mypy parts. ADVLOCK_PYTHONS="python3 /path/python"
# chooses the interpreters instead.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/build/python"
mkdir -p "$work"

find_pythons() {
  local candidates=(python3 /usr/bin/python3)
  local minor
  for minor in 9 10 11 12 13 14; do candidates+=("python3.$minor"); done
  candidates+=("$HOME"/.pyenv/versions/3.*/bin/python3)
  local seen="" c path version
  for c in "${candidates[@]}"; do
    path=$(command -v "$c" 2>/dev/null) || continue
    # The interpreter itself: pyenv shims and symlinks resolve to it.
    path=$("$path" -c 'import os, sys; print(os.path.realpath(sys.executable))' 2>/dev/null) || continue
    "$path" -c 'import sys; sys.exit(sys.version_info < (3, 9))' 2>/dev/null || continue
    # One interpreter per Python version (the first found: python3 on PATH
    # wins): a second 3.11 (pyenv's and Debian's) builds the same wheel tag
    # and runs the same suite again, for a minute of CI time.
    version=$("$path" -c 'import sys; print("%d.%d" % sys.version_info[:2])') || continue
    case " $seen " in *" $path "* | *" v$version "*) continue ;; esac
    seen="$seen $path v$version"
    echo "$path"
  done
}

if [ -n "${ADVLOCK_PYTHONS:-}" ]; then
  read -r -a pythons <<<"$ADVLOCK_PYTHONS"
else
  mapfile -t pythons < <(find_pythons)
fi
[ ${#pythons[@]} -gt 0 ] || { echo "test-python: no Python >= 3.9 found" >&2; exit 69; }

"$root/scripts/install-deps.sh" python
sdist=$("$root/scripts/python-sdist.sh" "$work/dist")
echo "sdist: $(basename "$sdist") ($(du -k "$sdist" | cut -f1) KiB)"
export ADVLOCK_CCACHE_DIR="$work/ccache"

# prepare PYTHON FIRST: a fresh venv for PYTHON with the test tools and its own
# wheel installed; prints its venv. FIRST=1 adds the first interpreter's extras.
prepare() {
  local python=$1 first=$2 version venv wheel
  version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  venv="$work/venv-$version-$(echo "$python" | md5sum | cut -c1-6)"
  # psycopg[binary] brings a libpq of its own: the tests' admin connection
  # works where the host's libpq is hidden.
  local extras=(pytest "psycopg[binary]>=3.1")
  if [ "$first" -eq 1 ]; then
    extras+=("psycopg[c]>=3.1" psycopg2 mypy)
  fi
  # Each step || return: set -e does not apply in a function run as a condition.
  rm -rf "$venv"
  "$python" -m venv "$venv" >&2 || return
  "$venv/bin/python" -m pip --disable-pip-version-check -q install "${extras[@]}" >&2 || return
  wheel=$("$root/scripts/python-wheel.sh" "$venv/bin/python" "$sdist" "$work/dist") || return
  "$venv/bin/python" -m pip --disable-pip-version-check -q install --no-index --no-deps "$wheel" >&2 || return
  echo "wheel: $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB)" >&2
  echo "$venv"
}

# The builds are CPU work and the suites mostly wait on the servers, so the
# next interpreter's venv and wheel are made while the current one is tested:
# this runs in the background and prints one line per interpreter, in order,
# as each is ready ("ok|failed FIRST VERSION PYTHON VENV LOG"; its output is
# in LOG).
prepare_all() {
  local i first version log venv
  for i in "${!pythons[@]}"; do
    # From the second on, niced: those builds run beside a suite and take
    # the CPU it leaves idle, not its own. The first has no suite to share with.
    [ "$i" -ne 1 ] || renice -n 19 -p "$BASHPID" >/dev/null || true
    first=$([ "$i" -eq 0 ] && echo 1 || echo 0)
    version=$("${pythons[$i]}" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    log="$work/prepare-$i.log"
    if venv=$(prepare "${pythons[$i]}" "$first" 2>"$log"); then
      echo "ok $first $version ${pythons[$i]} $venv $log"
    else
      echo "failed $first $version ${pythons[$i]} - $log"
    fi
  done
}
exec 3< <(prepare_all)
preparing=$!
trap 'kill "$preparing" 2>/dev/null || true' EXIT

# One PostgreSQL and one MariaDB for every interpreter's suite, one suite
# after the other (the suites leave nothing behind that another would see).
export ADVLOCK_PYTHON_COUNT=${#pythons[@]}
status=0
"$root/scripts/with-postgres.sh" -- \
  "$root/scripts/with-mariadb.sh" --plugin-load-add=metadata_lock_info -- bash -c '
  set -uo pipefail
  status=0 tested=0
  while read -r -u 3 ready first version python venv log; do
    tested=$((tested + 1))
    echo "== Python $version ($python) =="
    cat "$log"
    if [ "$ready" != ok ]; then
      echo "Python $version: build or install FAILED"; status=1; continue
    fi
    pytest_args=(-q -rs -p no:cacheprovider)
    [ "$first" -eq 1 ] || pytest_args+=(--deselect tests/test_stubs.py -k "not psycopg2")
    "'"$root"'/scripts/python-suite.sh" "$venv" "${pytest_args[@]}" 3<&- || status=1
  done
  if [ "$tested" -ne "$ADVLOCK_PYTHON_COUNT" ]; then
    echo "test-python: only $tested of $ADVLOCK_PYTHON_COUNT interpreters were prepared (see the last one above)"
    status=1
  fi
  exit $status
' || status=$?
wait "$preparing" 2>/dev/null || true
exit $status
