#!/usr/bin/env bash
# Start a throwaway MariaDB for tests: a new data directory in a fresh temporary
# directory, listening on 127.0.0.1 at a free port (and a Unix socket there).
# Never touches any other server.
#
#   scripts/mariadb-start.sh STATE_DIR [--option=value ...]
#
# STATE_DIR receives url (mysql://advlock:PASSWORD@127.0.0.1:PORT/advlock),
# port, password, socket, base_dir, pid_file, and env (ADVLOCK_TEST_MYSQL_URL).
# Extra options go to mariadbd. Stop it with scripts/mariadb-stop.sh STATE_DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
state=${1:?usage: mariadb-start.sh STATE_DIR [--option=value ...]}
shift
mkdir -p "$state"
state=$(cd "$state" && pwd)
"$here/mariadb-stop.sh" "$state" >/dev/null 2>&1 || true
mkdir -p "$state"

base=$(mktemp -d /tmp/advlock-mariadb.XXXXXX)
chmod 755 "$base"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
run_as=()
server_user=$(id -un)
if [ "$(id -u)" -eq 0 ]; then server_user=mysql; fi
# Each server gets its own tmpdir: concurrent bootstraps sharing /tmp remove
# each other's temporary tables ("Unknown table 'mysql.tmp_user_sys'").
mkdir -p "$base/tmp"
chown "$server_user" "$base" "$base/tmp"

mariadb-install-db --no-defaults --user="$server_user" --datadir="$base/data" \
  --auth-root-authentication-method=socket --skip-test-db --tmpdir="$base/tmp" >"$base/install.log" 2>&1 \
  || { cat "$base/install.log" >&2; exit 1; }
/usr/sbin/mariadbd --no-defaults --user="$server_user" --datadir="$base/data" \
  --bind-address=127.0.0.1 --port="$port" --socket="$base/mysqld.sock" --pid-file="$base/mysqld.pid" \
  --skip-name-resolve --innodb-buffer-pool-size=32M --innodb-log-file-size=8M \
  --tmpdir="$base/tmp" --log-error="$base/error.log" "$@" &
echo "$base" >"$state/base_dir"
server_pid=$!
up=no
for _ in $(seq 1 300); do
  if [ -S "$base/mysqld.sock" ] && mariadb --no-defaults -uroot -S "$base/mysqld.sock" -e 'SELECT 1' >/dev/null 2>&1; then
    up=yes; break
  fi
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
if [ "$up" != yes ]; then
  echo "mariadb-start.sh: the server did not come up; its log ($base/error.log) says:" >&2
  tail -n 20 "$base/error.log" >&2 || true
  exit 1
fi
mariadb --no-defaults -uroot -S "$base/mysqld.sock" <<SQL
CREATE DATABASE advlock;
CREATE USER 'advlock'@'127.0.0.1' IDENTIFIED BY '$password';
CREATE USER 'advlock'@'localhost' IDENTIFIED BY '$password';
GRANT ALL ON *.* TO 'advlock'@'127.0.0.1' WITH GRANT OPTION;
GRANT ALL ON *.* TO 'advlock'@'localhost' WITH GRANT OPTION;
SQL
printf '%s\n' "$port" >"$state/port"
printf '%s\n' "$password" >"$state/password"
printf '%s\n' "$base/mysqld.sock" >"$state/socket"
printf '%s\n' "$base/mysqld.pid" >"$state/pid_file"
printf 'mysql://advlock:%s@127.0.0.1:%s/advlock\n' "$password" "$port" >"$state/url"
printf 'export ADVLOCK_TEST_MYSQL_URL=%q\n' "$(cat "$state/url")" >"$state/env"
echo "MariaDB $(mariadb --no-defaults -uroot -S "$base/mysqld.sock" -Nse 'SELECT VERSION()') on 127.0.0.1:$port (data in $base/data)" >&2
