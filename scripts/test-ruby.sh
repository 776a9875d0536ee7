#!/usr/bin/env bash
# Build the Ruby gem the way users do (gem build + gem install, the native
# extension compiled with mkmf from the SWIG wrapper; Debian's Ruby, with
# ActiveRecord and ruby-pg from Debian packages) and run its minitest suite
# against a real, throwaway PostgreSQL and MariaDB (both stopped afterwards,
# whatever the outcome); then examples/ruby through the same
# skip check as the other languages' examples.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" build postgres mysql ruby java
gems="$root/build/ruby-gems"
rm -rf "$gems"
"$root/scripts/ruby-gem.sh" "$gems" >/dev/null
export GEM_PATH="$gems:$(gem env gempath)"
"$root/scripts/with-postgres.sh" -- \
  "$root/scripts/with-mariadb.sh" --plugin-load-add=metadata_lock_info -- bash -c '
  set -euo pipefail
  ruby -e "Dir[File.join(ARGV[0], \"test/*_test.rb\")].sort.each { |f| require f }" "'"$root"'/bindings/ruby"
  "'"$root"'/tests/examples/check_skip_if_running.sh" "'"$root"'/examples/ruby/skip_if_running.rb" "$ADVLOCK_TEST_PG_STATE"
'
