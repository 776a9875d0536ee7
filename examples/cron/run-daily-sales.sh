#!/usr/bin/env bash
# cron -> this script -> advlock -> java: the daily_sales batch (a jar) runs on
# whichever host cron starts it, but never twice at once (field note 000).
#
# Its exit code (cron ignores it and mails only output, so read it in your
# monitoring or under chronic): the jar's own; 3 when daily_sales already runs
# elsewhere (made 0 here: skipping is normal); 69 when the database is
# unreachable; 75 when the lock was lost and the jar was stopped.
set -euo pipefail

# The lock connection is advlock's own: not the jar's pool, never PgBouncer in
# transaction mode. A password belongs in ~/.pgpass, not in this file.
ADVLOCK_DB=${ADVLOCK_DB:-postgresql://batch@db1.example.com/sales}
REGISTRY=${REGISTRY:-/etc/advlock/registry.toml}

exec advlock run --db "$ADVLOCK_DB" --registry "$REGISTRY" --name daily_sales \
  --conflict-exit-code 0 --kill-grace 30s \
  -- java -Xmx2g -jar /opt/batch/daily-sales.jar "$@"
