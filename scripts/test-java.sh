#!/usr/bin/env bash
# Build and test the Java binding the way users get it: `mvn package` under
# bindings/java (CMake + SWIG build the JNI library into the jar; JUnit 5 runs
# against a real, throwaway PostgreSQL and MariaDB, both stopped afterwards
# whatever the outcome), then the batch example in
# examples/java-batch built against the installed artifact and run by the
# same skip check as the C, C++ and Python examples.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" build postgres mysql java
mvn=(mvn -B -ntp -Dstyle.color=never)

"$root/scripts/with-postgres.sh" -- \
  "$root/scripts/with-mariadb.sh" --plugin-load-add=metadata_lock_info -- bash -c '
  set -euo pipefail
  cd "'"$root"'/bindings/java"
  # The status of Maven decides, not that of the filter: with pipefail,
  # "mvn | grep || true" made PIPESTATUS describe true, so failing tests passed.
  log=$(mktemp) && status=0
  '"${mvn[*]}"' install > "$log" 2>&1 || status=$?
  grep -E "Tests run:|BUILD|ERROR|FAIL|Running io" "$log" || true
  rm -f "$log"
  test "$status" -eq 0
  cd "'"$root"'/examples/java-batch"
  '"${mvn[*]}"' -q package
  "'"$root"'/tests/examples/check_skip_if_running.sh" "'"$root"'/examples/java-batch/daily-sales.sh" "$ADVLOCK_TEST_PG_STATE"
  "'"$root"'/tests/examples/check_java_transaction_example.sh" "$ADVLOCK_TEST_PG_STATE"
'
