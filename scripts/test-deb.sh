#!/usr/bin/env bash
# The Debian packages as a user gets them: build them (scripts/build-deb.sh),
# install them on this machine, then check what a user relies on:
#   - the command runs from cron's bare environment (env -i), with --db local:
#     a job runs, and a second run while it does skips with exit 3;
#   - man advlock finds the page;
#   - a C program builds against the installed package with pkg-config and
#     with find_package(advlock), and runs;
#   - Depends: names what the binaries need (libadvlock0, libpq5; libmariadb3
#     recommended), and neither binary links a client library itself.
# The packages are purged at the end, whatever happened, so no later suite
# finds a libadvlock in /usr/lib. Needs root (or sudo) and dpkg; without them
# it says why and exits 77 (skipped). Prints "deb: N checks, M failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
packages=(advlock libadvlock-dev libadvlock0)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo_cmd=(sudo -n)
  else
    echo "deb: skipped: installing packages needs root or password-less sudo (running as $(id -un))"
    exit 77
  fi
fi
if ! command -v dpkg >/dev/null || ! command -v apt-get >/dev/null; then
  echo "deb: skipped: this is not a Debian-based system (no dpkg/apt-get)"
  exit 77
fi

checks=0 failed=0 skipped=0
pass() { checks=$((checks + 1)); echo "  ok: $*"; }
fail() { checks=$((checks + 1)); failed=$((failed + 1)); echo "  FAIL: $*"; }
skip() { skipped=$((skipped + 1)); echo "  skipped: $*"; }
check() {  # check DESCRIPTION COMMAND...: passes when COMMAND succeeds
  local what=$1; shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}

work=$(mktemp -d /tmp/advlock-test-deb.XXXXXX)
chmod 0755 "$work"
# apt waits for the dpkg lock (another apt may be running) instead of failing.
apt=("${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q -y -o DPkg::Lock::Timeout=300)
purge() {
  local installed=()
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}\n' "$package" 2>/dev/null | grep -q 'ok installed' && installed+=("$package")
  done
  [ ${#installed[@]} -eq 0 ] || "${apt[@]}" purge "${installed[@]}" >"$work/purge.log" 2>&1 \
    || { echo "deb: purging ${installed[*]} failed:"; cat "$work/purge.log"; }
}
cleanup() {
  # Stop the first job if a check failed while it held the lock.
  [ -n "${holder:-}" ] && kill "$holder" 2>/dev/null
  purge
  rm -rf "$work"
}
trap cleanup EXIT

echo "== building the packages =="
purge  # left over from an interrupted run: test what is built now
if ! "$root/scripts/build-deb.sh" >"$work/build.log" 2>&1; then
  cat "$work/build.log"
  echo "deb: 1 checks, 1 failed (the packages did not build)"
  exit 1
fi
grep -A3 '^build-deb: packages' "$work/build.log"
debs=("$root"/build/deb/*.deb)
check "three packages built" test ${#debs[@]} -eq 3

echo "== what is inside =="
for deb in "${debs[@]}"; do dpkg-deb -x "$deb" "$work/tree"; done
libdir=$(dirname "$(find "$work/tree" -name 'libadvlock.so.0' | head -1)")
for binary in "$work/tree/usr/bin/advlock" "$libdir/libadvlock.so.0"; do
  echo "  $(basename "$binary") NEEDED: $(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
done
runpath=$(readelf -d "$work/tree/usr/bin/advlock" | grep -E 'RUNPATH|RPATH')
check "the packaged command has no RUNPATH (its library is in a system directory)${runpath:+: $runpath}" test -z "$runpath"
warnings=$(man --warnings -l "$work/tree/usr/share/man/man1/advlock.1" 2>&1 >/dev/null)
check "the man page renders without groff warnings" test -z "$warnings"
[ -z "$warnings" ] || echo "$warnings" | head -5

echo "== installing =="
if "${apt[@]}" install --no-install-recommends "${debs[@]}" >"$work/install.log" 2>&1; then
  pass "apt-get install ./build/deb/*.deb (dpkg -i with the lock waited for)"
else
  fail "installing the packages"; cat "$work/install.log"
fi

for package in "${packages[@]}"; do
  echo "  $package Depends: $(dpkg-query -W -f='${Depends}' "$package" 2>/dev/null)"
done
depends=$(dpkg -s advlock 2>/dev/null | sed -n 's/^Depends: //p')
check "advlock Depends: names libadvlock0: $depends" grep -q libadvlock0 <<<"$depends"
# libadvlock.so.0 loads libpq and libmariadb on demand (core/client_libraries):
# its package names them itself, MariaDB's only as a recommendation.
lib_depends=$(dpkg -s libadvlock0 2>/dev/null | sed -n 's/^Depends: //p')
lib_recommends=$(dpkg -s libadvlock0 2>/dev/null | sed -n 's/^Recommends: //p')
check "libadvlock0 Depends: names libpq5, which it loads: $lib_depends" grep -q libpq5 <<<"$lib_depends"
check "libadvlock0 Depends: has no libmariadb3 (a PostgreSQL-only host goes without)" \
  test "${lib_depends/libmariadb/}" = "$lib_depends"
if grep -q libmariadb.so.3 /usr/lib/*/libadvlock.so.0 2>/dev/null; then
  check "libadvlock0 Recommends: names libmariadb3, which it loads for mysql:// URLs: $lib_recommends" \
    grep -q libmariadb3 <<<"$lib_recommends"
else
  check "libadvlock0 Recommends: has no libmariadb3 (built without MySQL)" \
    test "${lib_recommends/libmariadb/}" = "$lib_recommends"
fi
for binary in /usr/bin/advlock /usr/lib/*/libadvlock.so.0; do
  check "$binary links neither libpq nor libmariadb (loaded when a session needs them)" \
    bash -c '! readelf -d "$1" | grep -qE "NEEDED.*(libpq|libmariadb)"' _ "$binary"
done

echo "== the command, from cron's environment (env -i) =="
version=$(env -i /usr/bin/advlock --version 2>&1)
check "env -i /usr/bin/advlock --version: $version" grep -q '^advlock [0-9]' <<<"$version"
# The first job says it started through a FIFO, then waits for the test to
# release it: no sleeps, no timing. timeout only ends a hung test.
name="test_deb_$$"
mkfifo "$work/started" "$work/release"
env -i /usr/bin/advlock run --db local --name "$name" -- \
  /bin/sh -c "echo running >'$work/started'; read line <'$work/release'; echo first job done" \
  >"$work/first.log" 2>&1 &
holder=$!
if timeout 60 sh -c "read line <'$work/started'"; then
  pass "env -i advlock run --db local --name $name runs the job"
  code=0
  second=$(env -i /usr/bin/advlock run --db local --name "$name" -- /bin/echo second job ran 2>&1) || code=$?
  if [ "$code" -eq 3 ] && [[ $second != *"second job ran"* ]]; then
    pass "a second run while the first holds the lock exits 3 without running: ${second//$'\n'/ }"
  else
    fail "a second run while the first holds the lock exited $code, want 3 without running: $second"
  fi
  echo go >"$work/release"
else
  fail "the first job did not start: $(cat "$work/first.log")"
  kill "$holder" 2>/dev/null
fi
code=0; wait "$holder" || code=$?; holder=
if [ "$code" -eq 0 ] && grep -q 'first job done' "$work/first.log"; then
  pass "the first job ends with its own exit code 0"
else
  fail "the first job exited $code: $(cat "$work/first.log")"
fi
again=0; env -i /usr/bin/advlock run --db local --name "$name" -- /bin/true || again=$?
check "after it, the lock is free again (exit $again)" test "$again" -eq 0

echo "== man advlock =="
if grep -rqs '^path-exclude=/usr/share/man' /etc/dpkg/dpkg.cfg.d/; then
  skip "dpkg on this machine leaves out man pages (path-exclude in /etc/dpkg/dpkg.cfg.d)"
  skip "man advlock"
else
  page=$(man -w advlock 2>&1)
  check "man -w advlock: $page" test -f "$page"
  if man advlock 2>/dev/null | grep -q 'advlock run: the cron wrapper'; then
    pass "man advlock shows the page (its run section)"
  else
    fail "man advlock does not show the page"
  fi
fi

echo "== building against the installed package =="
consumer=$root/tests/install/consumer
if cc -std=c99 "$consumer/consumer.c" -o "$work/consumer-pc" $(pkg-config --cflags --libs advlock) \
     >"$work/pc.log" 2>&1; then
  check "pkg-config --cflags --libs advlock: builds, links and runs" "$work/consumer-pc"
else
  fail "a C program does not build with pkg-config: $(cat "$work/pc.log")"
fi
if cmake -S "$consumer" -B "$work/consumer-cmake" >"$work/cmake.log" 2>&1 &&
   cmake --build "$work/consumer-cmake" >>"$work/cmake.log" 2>&1; then
  check "find_package(advlock): builds, links and runs" "$work/consumer-cmake/consumer"
else
  fail "a C program does not build with find_package(advlock):"; tail -20 "$work/cmake.log"
fi

echo "== purging =="
purge
left=$(find /usr/lib /usr/include /usr/bin -maxdepth 2 -name '*advlock*' 2>/dev/null)
check "purged: nothing of advlock left in /usr/lib, /usr/include, /usr/bin${left:+: $left}" test -z "$left"

echo "deb: $checks checks, $failed failed$([ "$skipped" -eq 0 ] || echo ", $skipped skipped")"
[ "$failed" -eq 0 ]
