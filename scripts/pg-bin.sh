#!/usr/bin/env bash
# Print the directory of Debian's newest installed PostgreSQL server binaries
# (/usr/lib/postgresql/N/bin). Exits 69 with a hint when there is none.
set -euo pipefail
for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -n -r); do
  if [ -x "$dir/postgres" ] && [ -x "$dir/initdb" ]; then
    echo "$dir"
    exit 0
  fi
done
echo "no PostgreSQL server binaries under /usr/lib/postgresql: run scripts/install-deps.sh postgres" >&2
exit 69
