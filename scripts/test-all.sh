#!/usr/bin/env bash
# Run every test suite of advlock, as CI does (.ci/run calls exactly this):
#   1. the C++ tree built with ASan+UBSan: core and C ABI unit tests, real-PostgreSQL
#      and real-MariaDB integration and fault-injection tests, the advlock command's tests,
#      header/export/install/README checks, example programs;
#   2. the tests that use several threads (the watchdog and its fault injection,
#      waits cancelled from another thread, per-thread errors) again under
#      ThreadSanitizer;
#   3. a short libFuzzer run of the key and registry parsers;
#   4. the Python binding: pip-installed into a fresh venv per Python >= 3.9 on
#      the machine, pytest against a real PostgreSQL (scripts/test-python.sh);
#   5. the Java binding: mvn package (SWIG + JNI library in the jar), JUnit 5
#      against a real PostgreSQL, and the batch examples (scripts/test-java.sh);
#   6. the Ruby gem: rake gem, gem install without swig, minitest against a real
#      PostgreSQL, ActiveRecord compatibility included, and an install linking a
#      system libadvlock (scripts/test-ruby.sh);
#   7. cross-language interop: the command, C++, Java, Python and Ruby derive the
#      same keys and contend for one lock on PostgreSQL and MariaDB
#      (scripts/test-interop.sh);
#   8. the Debian packages: built with CPack, installed with dpkg, used from
#      cron's environment, built against, purged (scripts/test-deb.sh).
# A suite that exits 77 could not run here (it says why) and counts as skipped.
# The exclusion torture's short run (tests/torture) is one of the ctest tests.
# Installs what it needs (Debian packages) first. Exits non-zero if anything failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=$(nproc 2>/dev/null || echo 2)

# Wall seconds per suite (its build included), printed in the summary: the
# whole run must stay well under CI's limit, so each suite's cost is visible.
declare -A seconds_of
lap_start=$SECONDS
lap() { seconds_of[$1]=$((SECONDS - lap_start)); lap_start=$SECONDS; }

"$root/scripts/install-deps.sh" build postgres mysql test fuzz python java ruby deb
lap deps

echo "== C++ tests (ASan + UBSan) =="
build="$root/build/asan"
cmake -S "$root" -B "$build" -G Ninja -C "$root/cmake/TestBuildFlags.cmake" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DADVLOCK_BUILD_TESTS=ON -DADVLOCK_BUILD_EXAMPLES=ON -DADVLOCK_SANITIZE=address,undefined >/dev/null
cmake --build "$build" -j "$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Twice as many tests as cores: they mostly wait (on servers they start, on
# restarts, heartbeats and lock waits), so at one a core the cores idled
# (~110 CPU s in ~300 s of wall on 2 cores). Tests that must not share a
# resource say so (RESOURCE_LOCK), not the job count.
ctest_jobs=$((jobs * 2))
ctest_status=0
(cd "$build" && ctest --output-on-failure -j "$ctest_jobs") || ctest_status=$?
lap ctest

echo "== threaded tests (TSan) =="
tsan="$root/build/tsan"
cmake -S "$root" -B "$tsan" -G Ninja -C "$root/cmake/TestBuildFlags.cmake" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DADVLOCK_BUILD_TESTS=ON -DADVLOCK_SANITIZE=thread >/dev/null
cmake --build "$tsan" -j "$jobs" --target advlock_core_tests advlock_pg_tests advlock_capi_internal_tests \
  advlock_fault_tests advlock_cli advlock_cli_tests advlock_mysql_tests advlock_mysql_core_tests \
  advlock_local_tests advlock_pg_core_tests
tsan_status=0
(cd "$tsan" && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 ctest --output-on-failure -j "$jobs" \
   -R 'pg\.(LockOwners|Each/LockOwnersOn|LockWaits|ConnectionSources|Holders|SessionLocks|SessionCloseC|Each/SessionCloseOn|LossWait|HeldLockDestructor)|faults\.(ServerEndsSession|Statements|LockConnectionMisuse|HeartbeatOptions|ProcessAndNetwork\.Killed)|cli\.CliRun\.(LostLock|Signals)|cli\.JobSupervision|local\.(LocalBackend|LockDirectorySafety)|mysql\.|core\.(LossState|HoldCounts)|capi_internal\.StatusMapping\.LastErrorIsPerThread') \
  || tsan_status=$?
lap tsan

echo "== fuzz smoke run =="
fuzz_status=0
# Per target when set; else fuzz.sh shares a fixed budget (~100 s) among the targets.
"$root/scripts/fuzz.sh" ${ADVLOCK_FUZZ_SECONDS:+"$ADVLOCK_FUZZ_SECONDS"} || fuzz_status=$?
lap fuzz

echo "== Python binding =="
python_status=0
"$root/scripts/test-python.sh" || python_status=$?
lap python

echo "== Java binding =="
java_status=0
"$root/scripts/test-java.sh" || java_status=$?
lap java

echo "== Ruby binding =="
ruby_status=0
"$root/scripts/test-ruby.sh" || ruby_status=$?
lap ruby

echo "== cross-language interop =="
interop_status=0
"$root/scripts/test-interop.sh" || interop_status=$?
lap interop

echo "== Debian packages =="
deb_status=0
"$root/scripts/test-deb.sh" || deb_status=$?
lap deb

echo "== summary =="
passed=0 failed=0 skipped=0
for suite in "ctest:$ctest_status" "tsan:$tsan_status" "fuzz:$fuzz_status" "python:$python_status" "java:$java_status" "ruby:$ruby_status" "interop:$interop_status" "deb:$deb_status"; do
  name=${suite%%:*} status=${suite#*:} took="(${seconds_of[${suite%%:*}]} s)"
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1)); echo "  $name: passed $took"
  elif [ "$status" -eq 77 ]; then
    skipped=$((skipped + 1)); echo "  $name: skipped (it said why above) $took"
  else
    failed=$((failed + 1)); echo "  $name: FAILED (exit $status) $took"
  fi
done
echo "  (installing packages took ${seconds_of[deps]} s; the whole run $SECONDS s)"
echo "suites: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
