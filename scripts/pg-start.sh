#!/usr/bin/env bash
# Start a throwaway PostgreSQL for tests and the demo: a new cluster in a fresh
# temporary directory, listening on 127.0.0.1 at a free port (and on a Unix
# socket in that directory). Never touches any other server.
#
#   scripts/pg-start.sh STATE_DIR [--standby-of PRIMARY_STATE_DIR] [-c name=value ...]
#
# STATE_DIR receives what clients need: url (postgresql://... with the
# password), port, host, password, socket_dir, data_dir, bin_dir, and env (a
# file to source: PG* variables and ADVLOCK_TEST_PG_URL). Extra -c settings go
# to the server. --standby-of makes a streaming hot standby of a server started
# by this script (pg_basebackup -R) instead of a new cluster. Stop it with
# scripts/pg-stop.sh STATE_DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

state=${1:?usage: pg-start.sh STATE_DIR [--standby-of PRIMARY_STATE_DIR] [-c name=value ...]}
shift
primary=""
if [ "${1:-}" = "--standby-of" ]; then
  primary=$(cd "${2:?--standby-of needs the state dir of the primary}" && pwd)
  shift 2
fi
settings=("$@")
mkdir -p "$state"
state=$(cd "$state" && pwd)

# A server left over in this state dir (a killed run) goes first.
"$here/pg-stop.sh" "$state" >/dev/null 2>&1 || true
mkdir -p "$state"

bin=$("$here/pg-bin.sh")
base=$(mktemp -d /tmp/advlock-pg.XXXXXX)
data="$base/data"
if [ -n "$primary" ]; then
  password=$(cat "$primary/password")
else
  password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
  printf '%s\n' "$password" >"$base/pwfile"
fi

# PostgreSQL refuses to run as root: run it as the postgres user, in a directory it owns.
as_server=()
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || { echo "pg-start: no 'postgres' user: run scripts/install-deps.sh postgres" >&2; exit 69; }
  chown -R postgres "$base"
  as_server=(runuser -u postgres --)
fi
chmod 700 "$base"

if [ -n "$primary" ]; then
  # A copy of the primary that follows it by streaming replication, read-only.
  "${as_server[@]}" env PGPASSWORD="$password" "$bin/pg_basebackup" -h 127.0.0.1 -p "$(cat "$primary/port")" \
    -U postgres -D "$data" -R -X stream >"$base/basebackup.log" 2>&1 || {
    echo "pg-start: pg_basebackup failed:" >&2; cat "$base/basebackup.log" >&2; rm -rf "$base"; exit 69; }
else
  "${as_server[@]}" "$bin/initdb" -D "$data" -U postgres --pwfile="$base/pwfile" -E UTF8 --locale=C \
    --auth-local=trust --auth-host=scram-sha-256 -N >"$base/initdb.log" 2>&1 || {
    echo "pg-start: initdb failed:" >&2; cat "$base/initdb.log" >&2; rm -rf "$base"; exit 69; }
  rm -f "$base/pwfile"
fi

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

started=""
for attempt in 1 2 3 4 5 6 7 8; do
  port=$("$here/free-port.sh")
  options="-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$base"
  options+=" -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
  for setting in "${settings[@]}"; do
    [ "$setting" = "-c" ] && continue
    options+=" -c $setting"
  done
  if "${as_server[@]}" "$bin/pg_ctl" -D "$data" -l "$base/server.log" -w -t 60 -o "$options" start >/dev/null 2>&1; then
    # With extra listen addresses the server starts when any one of them
    # binds: make sure 127.0.0.1, which every client here uses, is one.
    if port_in_use "$port"; then
      started=yes
      break
    fi
    echo "pg-start: port $port was taken on 127.0.0.1 after the server started; trying another" >&2
    "${as_server[@]}" "$bin/pg_ctl" -D "$data" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
  fi
done
if [ -z "$started" ]; then
  echo "pg-start: the server did not start; its log:" >&2
  tail -n 30 "$base/server.log" >&2 || true
  rm -rf "$base"
  exit 69
fi

url="postgresql://postgres:$password@127.0.0.1:$port/postgres"
printf '%s\n' "$url" >"$state/url"
printf '%s\n' "$port" >"$state/port"
printf '%s\n' "127.0.0.1" >"$state/host"
printf '%s\n' "$password" >"$state/password"
printf '%s\n' "$base" >"$state/socket_dir"
printf '%s\n' "$data" >"$state/data_dir"
printf '%s\n' "$bin" >"$state/bin_dir"
printf '%s\n' "$base" >"$state/base_dir"
cat >"$state/env" <<ENV
export PGHOST=127.0.0.1 PGPORT=$port PGUSER=postgres PGDATABASE=postgres PGPASSWORD=$password
export ADVLOCK_TEST_PG_URL='$url'
ENV
role=primary
[ -n "$primary" ] && role="standby of 127.0.0.1:$(cat "$primary/port")"
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') ($role) on 127.0.0.1:$port (data in $data)"
