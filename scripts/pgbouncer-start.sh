#!/usr/bin/env bash
# Start a throwaway PgBouncer in transaction mode in front of a server started
# by scripts/pg-start.sh, on 127.0.0.1 and a free port.
#
#   scripts/pgbouncer-start.sh STATE_DIR PG_STATE_DIR
#
# STATE_DIR receives url (postgresql://... through PgBouncer) and port. Stop it
# with scripts/pgbouncer-stop.sh STATE_DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
state=${1:?usage: pgbouncer-start.sh STATE_DIR PG_STATE_DIR}
pg=$(cd "${2:?usage: pgbouncer-start.sh STATE_DIR PG_STATE_DIR}" && pwd)
command -v pgbouncer >/dev/null || [ -x /usr/sbin/pgbouncer ] || {
  echo "pgbouncer-start: PgBouncer is not installed: run scripts/install-deps.sh test" >&2; exit 69; }
bouncer=$(command -v pgbouncer || echo /usr/sbin/pgbouncer)
mkdir -p "$state"
state=$(cd "$state" && pwd)
base=$(mktemp -d /tmp/advlock-pgbouncer.XXXXXX)
password=$(cat "$pg/password")

printf '"postgres" "%s"\n' "$password" >"$base/userlist.txt"
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# PgBouncer refuses to run as root.
as_bouncer=()
[ "$(id -u)" -eq 0 ] && as_bouncer=(runuser -u postgres --)

started=""
for attempt in 1 2 3 4 5 6 7 8; do
  port=$("$here/free-port.sh")
  cat >"$base/pgbouncer.ini" <<INI
[databases]
postgres = host=127.0.0.1 port=$(cat "$pg/port") dbname=postgres user=postgres password=$password

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir = $base
auth_type = trust
auth_file = $base/userlist.txt
pool_mode = transaction
default_pool_size = 4
logfile = $base/pgbouncer.log
pidfile = $base/pgbouncer.pid
ignore_startup_parameters = extra_float_digits
INI
  [ "$(id -u)" -eq 0 ] && chown -R postgres "$base"
  if "${as_bouncer[@]}" "$bouncer" -d "$base/pgbouncer.ini" >/dev/null 2>&1; then
    # -d returns once it forked; wait until it listens.
    for _ in $(seq 1 200); do port_in_use "$port" && { started=yes; break; }; sleep 0.05; done
    [ -n "$started" ] && break
  fi
done
if [ -z "$started" ]; then
  echo "pgbouncer-start: PgBouncer did not start; its log:" >&2
  tail -n 20 "$base/pgbouncer.log" >&2 || true
  rm -rf "$base"; exit 69
fi
printf '%s\n' "postgresql://postgres@127.0.0.1:$port/postgres" >"$state/url"
printf '%s\n' "$port" >"$state/port"
printf '%s\n' "$base" >"$state/base_dir"
echo "PgBouncer (transaction mode) on 127.0.0.1:$port in front of 127.0.0.1:$(cat "$pg/port")"
