#!/usr/bin/env bash
# Build the libFuzzer targets with clang (ASan+UBSan) and run each one.
#
#   scripts/fuzz.sh            # 20 seconds per target (the smoke run of the test command)
#   scripts/fuzz.sh 600        # 10 minutes per target
#
# Seeds come from tests/fuzz/corpus/<target>; new inputs go to build/fuzz/corpus
# so the repository is not changed. A crash leaves its input in build/fuzz and
# fails the run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-20}
case "$seconds" in ''|*[!0-9]*) echo "usage: fuzz.sh [SECONDS]" >&2; exit 64 ;; esac

"$root/scripts/install-deps.sh" build fuzz
build="$root/build/fuzz"
CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DADVLOCK_BUILD_FUZZERS=ON -DADVLOCK_SANITIZE=address,undefined \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link" >/dev/null
cmake --build "$build" --target fuzz_key_text fuzz_registry fuzz_pg_conninfo fuzz_mysql_url fuzz_local_url >/dev/null

passed=0 failed=0
for target in key_text registry pg_conninfo mysql_url local_url; do
  corpus="$build/corpus/$target"
  mkdir -p "$corpus" "$build/artifacts"
  if "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -print_final_stats=1 \
       -artifact_prefix="$build/artifacts/$target-" "$corpus" "$root/tests/fuzz/corpus/$target" \
       >"$build/$target.log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/$target.log")
    echo "fuzz_$target: ${runs:-?} inputs in ${seconds}s, no crash"
    passed=$((passed + 1))
  else
    echo "fuzz_$target: FAILED; the input that broke it is in $build/artifacts/; log:"
    tail -n 40 "$build/$target.log"
    failed=$((failed + 1))
  fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
