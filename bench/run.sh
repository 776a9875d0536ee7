#!/usr/bin/env bash
# Run advlock's benchmarks against a throwaway PostgreSQL (and MariaDB) on
# loopback and write docs/BENCHMARKS.md. Every figure is reported next to its
# baseline measured in the same run (raw libpq, raw libmariadb for the lock cycles).
#
#   bench/run.sh              # 5 repetitions, interleaved at random
#   BENCH_REPETITIONS=10 bench/run.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
repetitions=${BENCH_REPETITIONS:-5}

"$root/scripts/install-deps.sh" build postgres
dpkg-query -W -f='${Status}' libbenchmark-dev 2>/dev/null | grep -q "ok installed" || {
  export DEBIAN_FRONTEND=noninteractive; apt-get update -q >/dev/null; apt-get install -y -q libbenchmark-dev >/dev/null; }

"$root/scripts/install-deps.sh" test
build="$root/build/bench"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DADVLOCK_BUILD_BENCHMARKS=ON \
  -DADVLOCK_BUILD_TESTS=ON >/dev/null
cmake --build "$build" --target advlock_bench advlock_fault_tests advlock_fault_holder >/dev/null

# Same condition for every contender: CPUs kept out of idle (see hold_cpus_awake.py).
coproc AWAKE { python3 "$root/bench/hold_cpus_awake.py"; }
read -r cpu_idle_state <&"${AWAKE[0]}"
echo "$cpu_idle_state" >"$build/cpu_idle_state"

results="$build/results.json"
command="bench/run.sh (advlock_bench --benchmark_repetitions=$repetitions --benchmark_enable_random_interleaving=true)"
"$root/scripts/install-deps.sh" mysql
"$root/scripts/with-postgres.sh" -- "$root/scripts/with-mariadb.sh" -- bash -c '
  export ADVLOCK_BENCH_PG_URL="$ADVLOCK_TEST_PG_URL" ADVLOCK_BENCH_MYSQL_URL="$ADVLOCK_TEST_MYSQL_URL"
  psql "$ADVLOCK_TEST_PG_URL" -Atc "SHOW server_version" > "'"$build"'/server_version"
  mariadb --no-defaults -uroot -S "$(cat "$ADVLOCK_TEST_MYSQL_STATE/socket")" -Nse "SELECT VERSION()" \
    > "'"$build"'/mysql_server_version"
  "'"$build"'/bench/advlock_bench" --benchmark_repetitions='"$repetitions"' \
     --benchmark_enable_random_interleaving=true --benchmark_out="'"$results"'" --benchmark_out_format=json
'
# Cable pull: the fault test pulls the cable between a client in a network
# namespace and its own server, and prints when each side let go.
cable="$build/cable.txt"
: >"$cable"
for trial in 1 2 3; do
  "$root/scripts/with-postgres.sh" -- "$build/tests/faults/advlock_fault_tests" \
    --gtest_filter='ProcessAndNetwork.CablePull*' 2>&1 | sed -n 's/^\[ cable    \] //p' >>"$cable" || true
done
# The Python binding, pip-installed into a fresh venv, against the C ABI and
# psycopg (its C-accelerated binary build) in the same run.
"$root/scripts/install-deps.sh" python
"$root/scripts/python-venv.sh" python3 "$build/python-venv" "psycopg[binary]>=3.1"
python_results="$build/python.json"
"$root/scripts/with-postgres.sh" -- bash -c '
  "'"$build"'/python-venv/bin/python" "'"$root"'/bench/python/lock_cycle.py" --url "$ADVLOCK_TEST_PG_URL" \
    --capi-bench "'"$build"'/bench/advlock_bench" --rounds '"$repetitions"' > "'"$python_results"'"
'
# Start-up of a cron job: the installed command (libadvlock.so and advlock
# from `cmake --install`) against flock(1) and psql, same run.
cmake --build "$build" --target advlock advlock_cli advlock_man advlock_startup_libpq >/dev/null
rm -rf "$build/prefix"
for component in runtime cli; do
  cmake --install "$build" --prefix "$build/prefix" --component "$component" >/dev/null
done
# "No slower than today" (issue 23): the command as it was before libpq and
# libmariadb were loaded lazily, built from that commit, in the same rounds.
before_commit=335ba2d9154f7f857c6cf3816a7558cd65aef49e
before_args=()
if "$root/bench/startup/install-before.sh" "$before_commit" "$build/before" "$build/before/prefix"; then
  before_args=(--advlock-before "$build/before/prefix/bin/advlock" --before-commit "$before_commit")
fi
startup_results="$build/startup.json"
"$root/scripts/with-postgres.sh" -- bash -c '
  python3 "'"$root"'/bench/startup/startup.py" --advlock "'"$build"'/prefix/bin/advlock" \
    --url "$ADVLOCK_TEST_PG_URL" --libpq-floor "'"$build"'/bench/advlock_startup_libpq" --lock-dir /run/lock \
    --rounds '"$repetitions"' "$@" > "'"$startup_results"'"
' startup "${before_args[@]}"
# The Java binding (its jar from `mvn package`), against the C ABI and pgjdbc.
"$root/scripts/install-deps.sh" java
(cd "$root/bindings/java" && mvn -B -q -ntp -DskipTests package)
(cd "$root/bindings/java" && mvn -B -q -ntp dependency:build-classpath -Dmdep.outputFile="$build/java-classpath.txt")
pgjdbc=$(cat "$build/java-classpath.txt")  # the test classpath: pgjdbc among others
java_results="$build/java.json"
"$root/scripts/with-postgres.sh" -- bash -c '
  java -cp "'"$root"'/bindings/java/target/advlock-0.1.0.jar:'"$pgjdbc"'" "'"$root"'/bench/java/LockCycleBench.java" \
    "$ADVLOCK_TEST_PG_URL" "'"$build"'/bench/advlock_bench" '"$repetitions"' > "'"$java_results"'"
'
# The Ruby gem (built and installed as users do) against the C ABI and ruby-pg,
# and the hand-off of a with_advisory_lock(timeout_seconds:) wait.
"$root/scripts/install-deps.sh" ruby
"$root/scripts/ruby-gem.sh" "$build/ruby-gems" >/dev/null
ruby_results="$build/ruby.json"
GEM_PATH="$build/ruby-gems:$(gem env gempath)" "$root/scripts/with-postgres.sh" -- bash -c '
  ruby "'"$root"'/bench/ruby/lock_cycle.rb" "$ADVLOCK_TEST_PG_URL" "'"$build"'/bench/advlock_bench" '"$repetitions"' \
    > "'"$ruby_results"'"
'
# The exclusion torture (tests/torture): per mode (session, xact,
# session-fenced) and fault kind, critical sections, overlaps, how long a
# holder took to learn of its loss, and the stale holders fenced out.
cmake --build "$build" --target torture_worker >/dev/null
torture_results="$build/torture.json"
python3 "$root/tests/torture/torture.py" --worker "$build/tests/torture/torture_worker" \
  --seconds "${BENCH_TORTURE_SECONDS:-10}" --json "$torture_results"
ADVLOCK_BENCH_TORTURE="$torture_results" ADVLOCK_BENCH_TORTURE_SECONDS="${BENCH_TORTURE_SECONDS:-10}" \
ADVLOCK_BENCH_CPU_IDLE="$(cat "$build/cpu_idle_state")" \
ADVLOCK_BENCH_MYSQL_VERSION="$(cat "$build/mysql_server_version")" python3 "$root/bench/report.py" "$results" "$(cat "$build/server_version")" "$command" "$cable" \
  "$python_results" "$java_results" "$ruby_results" "$startup_results" >"$root/docs/BENCHMARKS.md"
echo "wrote docs/BENCHMARKS.md"
