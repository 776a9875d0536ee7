#!/usr/bin/env bash
# Build and test the Python binding the way users get it: the sdist is made
# once (scripts/python-sdist.sh); for each interpreter the wheel is built from
# it by pip far from the checkout and repaired by auditwheel
# (scripts/python-wheel.sh), installed into a fresh virtual environment, and
# tested (scripts/python-suite.sh) against a real, throwaway PostgreSQL
# (scripts/with-postgres.sh) and MariaDB (scripts/with-mariadb.sh, for
# tests/test_mysql.py), with the host's libpq and MariaDB client hidden from
# the loader where that can be done (root: unshare --mount). Servers are
# stopped afterwards, whatever the outcome. Compilation goes through ccache
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

status=0
first=1
for python in "${pythons[@]}"; do
  version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  venv="$work/venv-$version-$(echo "$python" | md5sum | cut -c1-6)"
  echo "== Python $version ($python) =="
  # psycopg[binary] brings a libpq of its own: the tests' admin connection
  # works where the host's libpq is hidden.
  extras=(pytest "psycopg[binary]>=3.1")
  pytest_args=(-q -rs -p no:cacheprovider)
  if [ $first -eq 1 ]; then
    extras+=("psycopg[c]>=3.1" psycopg2 mypy)
  else
    pytest_args+=(--deselect tests/test_stubs.py -k "not psycopg2")
  fi
  rm -rf "$venv"
  if ! { "$python" -m venv "$venv" &&
         "$venv/bin/python" -m pip --disable-pip-version-check -q install "${extras[@]}" &&
         wheel=$("$root/scripts/python-wheel.sh" "$venv/bin/python" "$sdist" "$work/dist") &&
         "$venv/bin/python" -m pip --disable-pip-version-check -q install --no-index --no-deps "$wheel"; }; then
    echo "Python $version: build or install FAILED"; status=1; first=0; continue
  fi
  echo "wheel: $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB)"
  "$root/scripts/with-postgres.sh" -- \
    "$root/scripts/with-mariadb.sh" --plugin-load-add=metadata_lock_info -- \
    "$root/scripts/python-suite.sh" "$venv" "${pytest_args[@]}" || status=1
  first=0
done
exit $status
