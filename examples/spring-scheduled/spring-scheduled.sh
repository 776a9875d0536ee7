#!/usr/bin/env bash
# The Spring example: a scheduler whose daily_sales (@SchedulerLock) and
# daily_summary (transaction-scoped lock) jobs run on one instance at a time.
#
#   DB_PASSWORD=secret examples/spring-scheduled/spring-scheduled.sh jdbc:postgresql://db1/sales batch [SECONDS_OF_WORK]
#
# Start it twice: the second instance skips daily_sales while the first works.
# Runs until stopped; exec: the JVM replaces this shell, so Ctrl-C or a kill
# reaches the JVM itself and its locks go with it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec java -Xmx256m -jar "${SPRING_SCHEDULED_JAR:-$here/target/spring-scheduled.jar}" "$@"
