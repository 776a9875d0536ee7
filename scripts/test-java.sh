#!/usr/bin/env bash
# Build and test the Java binding the way users get it: `mvn install` under
# bindings/java (CMake + SWIG build the JNI library into the jar, with the
# libraries it needs beyond glibc and libstdc++; JUnit 5 runs on Java 17
# against a real, throwaway PostgreSQL and MariaDB, both stopped afterwards
# whatever the outcome; sources and javadoc jars), then the same JUnit suite
# on Java 25 against the built jar (no rebuild), then the batch example in
# examples/java-batch built against the installed artifact and run by the
# same skip check as the C, C++ and Python examples; then advlock-spring
# (bindings/spring) on Java 17 and its example, examples/spring-scheduled.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mvn=(mvn -B -ntp -Dstyle.color=never)

# Maven's output, filtered; Maven's status decides (with pipefail,
# "mvn | grep || true" once made failing tests pass). A JVM warning about
# restricted methods fails the run too: the suite passes --enable-native-access
# and must stay warning-free (forked JVMs' stray output lands in *.dumpstream).
run_junit() {
  local log status=0
  log=$(mktemp)
  rm -f target/surefire-reports/*.dumpstream
  "${mvn[@]}" "$@" > "$log" 2>&1 || status=$?
  grep -E "Tests run:|BUILD|ERROR|FAIL|Running io" "$log" || true
  if grep -h "restricted method" "$log" target/surefire-reports/* 2>/dev/null; then
    echo "test-java: a JVM printed the restricted-method warning above although --enable-native-access was given" >&2
    status=1
  fi
  rm -f "$log"
  return "$status"
}

if [ "${1:-}" = --with-servers ]; then
  cd "$root/bindings/java"
  echo "== JUnit on Java 17 (mvn install) =="
  run_junit install
  echo "== JUnit on Java 25, against the built jar =="
  # find-java25.sh prints the JDK's home, or (on failure) why there is none.
  if java25=$("$root/scripts/find-java25.sh" 2>&1); then
    jar=$(ls target/advlock-*.jar | grep -vE -- '-(sources|javadoc)\.jar$')
    run_junit surefire:test -Djvm="$java25/bin/java" -Dadvlock.test.classes="$PWD/$jar"
  else
    echo "JUnit on Java 25: SKIPPED ($java25)"
  fi
  cd "$root/examples/java-batch"
  "${mvn[@]}" -q package
  "$root/tests/examples/check_skip_if_running.sh" "$root/examples/java-batch/daily-sales.sh" "$ADVLOCK_TEST_PG_STATE"
  "$root/tests/examples/check_java_transaction_example.sh" "$ADVLOCK_TEST_PG_STATE"
  # advlock-spring on the advlock jar installed above (Java 17 only: it adds no native code).
  cd "$root/bindings/spring"
  echo "== advlock-spring: JUnit on Java 17 (mvn install) =="
  run_junit install
  cd "$root/examples/spring-scheduled"
  "${mvn[@]}" -q package
  "$root/tests/examples/check_spring_scheduled.sh" "$ADVLOCK_TEST_PG_STATE"
  exit 0
fi

"$root/scripts/install-deps.sh" build postgres mysql java
exec "$root/scripts/with-postgres.sh" -- \
  "$root/scripts/with-mariadb.sh" --plugin-load-add=metadata_lock_info -- "$0" --with-servers
