#!/usr/bin/env bash
# check_show_key.sh SHOW_KEY PG_STATE_DIR
# The psql statement show_key prints must compute, on the real server, the key
# show_key printed for the advlock scheme.
set -euo pipefail
show_key=$1 url=$(cat "$2/url")
for name in daily_sales "it's 日次" "a"; do
  output=$("$show_key" "$name")
  key=$(sed -n 's/^advlock scheme: *\(-\{0,1\}[0-9]*\) .*/\1/p' <<<"$output")
  sql=$(sed -n 's/^psql: //p' <<<"$output")
  from_server=$(psql "$url" -Atc "$sql")
  [ -n "$key" ] && [ "$key" = "$from_server" ] || { echo "name '$name': show_key says '$key', psql says '$from_server'"; exit 1; }
  echo "ok: '$name' -> $key"
done
