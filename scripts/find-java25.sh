#!/usr/bin/env bash
# Print the home of a Java 25 JDK, or say on stderr why there is none and exit 1.
# scripts/test-java.sh runs the JUnit suite on it as well as on Java 17, for the
# restricted-method warnings Java 24+ prints on System.load. Looks at
# $ADVLOCK_JAVA25_HOME, then /usr/lib/jvm/*25* (temurin-25-jdk-amd64 here and on
# CI); no Debian 12 package provides it, so install-deps.sh cannot.
set -euo pipefail
candidates=()
[ -n "${ADVLOCK_JAVA25_HOME:-}" ] && candidates+=("$ADVLOCK_JAVA25_HOME")
for dir in /usr/lib/jvm/*25*; do [ -d "$dir" ] && candidates+=("$dir"); done
for home in "${candidates[@]}"; do
  [ -x "$home/bin/java" ] || continue
  # "openjdk version "25.0.1" ..." or "25" alone: the feature number decides.
  feature=$("$home/bin/java" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p')
  if [ "$feature" = 25 ]; then
    echo "$home"
    exit 0
  fi
done
echo "no Java 25 JDK (looked at \$ADVLOCK_JAVA25_HOME${ADVLOCK_JAVA25_HOME:+=$ADVLOCK_JAVA25_HOME} and /usr/lib/jvm/*25*); install one (e.g. Temurin 25) or set ADVLOCK_JAVA25_HOME" >&2
exit 1
