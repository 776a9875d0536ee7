#!/usr/bin/env bash
# Cross-language interop (tests/interop/interop.py): the advlock command, a C++
# program, a Java program, a Python script and a Ruby script derive the same
# keys and contend for the same named and paired locks on one throwaway
# PostgreSQL and one throwaway MariaDB (both stopped afterwards, whatever the
# outcome). Reuses the Python venv, the jar and the gem the language suites
# built (scripts/test-python.sh, test-java.sh, test-ruby.sh) and builds what
# is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" build postgres mysql test python java ruby
build="$root/build/interop"
"$root/scripts/interop-build.sh" advlock_cli interop_contender interop_c_contender

python=$(ls -d "$root"/build/python/venv-*/bin/python 2>/dev/null | head -n 1 || true)
if [ -z "$python" ]; then
  "$root/scripts/python-venv.sh" python3 "$build/venv"
  python="$build/venv/bin/python"
fi
jar="$root/bindings/java/target/advlock-0.1.0.jar"
[ -f "$jar" ] || (cd "$root/bindings/java" && mvn -B -q -ntp -DskipTests package)
gems="$root/build/ruby-gems"
[ -d "$gems/gems" ] || "$root/scripts/ruby-gem.sh" "$gems" >/dev/null

"$root/scripts/with-postgres.sh" -- "$root/scripts/with-mariadb.sh" -- bash -c '
  python3 "'"$root"'/tests/interop/interop.py" --pg-url "$ADVLOCK_TEST_PG_URL" --mysql-url "$ADVLOCK_TEST_MYSQL_URL" \
    --cli "'"$build"'/cli/advlock" --c "'"$build"'/tests/interop/interop_c_contender" --cpp "'"$build"'/tests/interop/interop_contender" --python "'"$python"'" \
    --java-classpath "'"$jar"'" --ruby-gem-path "'"$gems"'"
'
