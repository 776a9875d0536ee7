#!/usr/bin/env bash
# Build the libFuzzer targets with clang (ASan+UBSan) and run each one: every
# tests/fuzz/fuzz_NAME.cpp, seeded from tests/fuzz/corpus/NAME/.
#
#   scripts/fuzz.sh            # the smoke run of the test command: about 100 s
#                              # in all, shared by the targets (5 to 15 s each)
#   scripts/fuzz.sh 600        # 10 minutes per target
#   scripts/fuzz.sh 60 config  # only fuzz_config, for a minute
#
# New inputs go to build/fuzz/corpus so the repository is not changed. A
# crash leaves its input in build/fuzz/artifacts and fails the run; add it to
# tests/fuzz/corpus/NAME/ with the fix.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-}
shift || true
case "$seconds" in *[!0-9]*) echo "usage: fuzz.sh [SECONDS_PER_TARGET [NAME...]]" >&2; exit 64 ;; esac

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for source in "$root"/tests/fuzz/fuzz_*.cpp; do
    name=$(basename "$source" .cpp)
    targets+=("${name#fuzz_}")
  done
fi
if [ -z "$seconds" ]; then
  # A fixed budget for the smoke run, however many targets there are.
  seconds=$((100 / ${#targets[@]}))
  [ "$seconds" -gt 15 ] && seconds=15
  [ "$seconds" -lt 5 ] && seconds=5
fi

"$root/scripts/install-deps.sh" build fuzz
build="$root/build/fuzz"
CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$build" -G Ninja -C "$root/cmake/TestBuildFlags.cmake" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DADVLOCK_BUILD_FUZZERS=ON -DADVLOCK_SANITIZE=address,undefined \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link" >/dev/null
cmake --build "$build" --target "${targets[@]/#/fuzz_}" >/dev/null

passed=0 failed=0
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  seeds="$root/tests/fuzz/corpus/$target"
  [ -d "$seeds" ] || { echo "fuzz_$target: no seeds in tests/fuzz/corpus/$target" >&2; exit 1; }
  mkdir -p "$corpus" "$build/artifacts"
  if "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -print_final_stats=1 \
       -artifact_prefix="$build/artifacts/$target-" "$corpus" "$seeds" \
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
