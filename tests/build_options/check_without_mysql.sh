#!/usr/bin/env bash
# check_without_mysql.sh SOURCE_DIR GENERATOR LIBRARY PROGRAM [CLI]
# What a build with -DADVLOCK_WITH_MYSQL=OFF must be:
#   1. LIBRARY (and CLI) need no MariaDB/MySQL client library (readelf NEEDED);
#   2. PROGRAM (without_mysql.c, linked to LIBRARY) gets ADVLOCK_EUNSUPPORTED
#      for mysql:// URLs and can still lock with the local backend;
#   3. the CLI, when given, exits 78 naming the missing backend;
#   4. a tree configured with -DADVLOCK_WITH_MYSQL=OFF compiles nothing of
#      core/mysql and links no libmariadb (configured only, not built: cheap).
set -euo pipefail
source_dir=$1 generator=$2 library=$3 program=$4 cli=${5:-}
work=$(mktemp -d /tmp/advlock-without-mysql.XXXXXX)
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }

for binary in "$library" ${cli:+"$cli"}; do
  needed=$(readelf -d "$binary" | grep NEEDED || true)
  if grep -Eiq 'mariadb|mysql' <<<"$needed"; then
    fail "$(basename "$binary") needs a MySQL client library:"$'\n'"$needed"
  else
    echo "ok: $(basename "$binary") needs no MySQL client library"
  fi
done

mkdir -m 0700 "$work/locks"
"$program" "$work/locks" || fail "without_mysql exited $?"

if [ -n "$cli" ]; then
  code=0
  out=$("$cli" hold --db 'mysql://batch@db1.example.com/sales' --key 1 2>&1) || code=$?
  if [ "$code" -eq 78 ] && grep -q 'ADVLOCK_WITH_MYSQL=ON' <<<"$out"; then
    echo "ok: advlock hold --db mysql://... exits 78: $out"
  else
    fail "advlock hold --db mysql://... exited $code, want 78 naming ADVLOCK_WITH_MYSQL: $out"
  fi
fi

cmake -S "$source_dir" -B "$work/off" -G "$generator" -DADVLOCK_WITH_MYSQL=OFF >"$work/configure.log" 2>&1 \
  || { cat "$work/configure.log" >&2; fail "configuring with -DADVLOCK_WITH_MYSQL=OFF failed"; }
# The build rules (build.ninja, or Makefiles' flags/link files) of that tree.
rules=$(find "$work/off" \( -name build.ninja -o -name '*.make' -o -name link.txt \) -print)
if [ -z "$rules" ]; then
  fail "configuring with -DADVLOCK_WITH_MYSQL=OFF wrote no build rules"
elif matches=$(grep -hEo 'core/mysql/[a-z_]+\.cpp|[^ ]*mariadb[^ ]*' $rules | sort -u) && [ -n "$matches" ]; then
  fail "a -DADVLOCK_WITH_MYSQL=OFF tree still builds or links MySQL parts:"$'\n'"$matches"
else
  echo "ok: a -DADVLOCK_WITH_MYSQL=OFF tree compiles nothing of core/mysql and links no libmariadb"
fi
exit "$failed"
