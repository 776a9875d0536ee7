#!/usr/bin/env bash
# cron → this script → java: the daily_sales jar, which skips by itself (exit 3)
# while another host runs it. Crontab line (field note 000):
#
#   0 2 * * *  /opt/batch/daily-sales.sh postgresql://batch@db1.example.com/sales >>/var/log/batch/daily-sales.log 2>&1
#
# The password belongs in ~/.pgpass. Exit codes (for your wrapper or monitoring:
# cron ignores them and mails only output, here none): the jar's own; 3 = already
# running elsewhere (skipped: normal); 75 = the lock was lost and the jar stopped.
# exec: the JVM replaces this shell, so a kill reaches the JVM itself and its
# lock goes with it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec java -Xmx512m -jar "${DAILY_SALES_JAR:-$here/target/daily-sales.jar}" "$@"
