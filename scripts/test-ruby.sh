#!/usr/bin/env bash
# Build the Ruby gem the way a developer does (`rake gem`: the SWIG wrapper
# generated once, pkg/advlock-VERSION.gem) and install it the way users do
# (`gem install` into a fresh GEM_HOME, swig replaced on PATH by a stub that
# fails, to prove installing needs only a compiler and the -dev packages;
# Debian's Ruby, with ActiveRecord and ruby-pg from Debian packages). Then,
# against a real, throwaway PostgreSQL and MariaDB (both stopped afterwards,
# whatever the outcome): the minitest suite on that installed gem, the
# examples/ruby check, and `gem install -- --with-advlock-dir=PREFIX` on a
# libadvlock installed with `cmake --install` (the build test-interop.sh
# reuses; bindings/ruby/test/check_system_libadvlock.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" build postgres mysql test ruby
work="$root/build/ruby"
rm -rf "$work"
mkdir -p "$work/no-swig"

(cd "$root/bindings/ruby" && rm -rf pkg && rake gem >/dev/null)
gem_file=$(ls "$root"/bindings/ruby/pkg/advlock-*.gem)

# The stub fails any install that runs swig; the marker tells it did.
cat >"$work/no-swig/swig" <<STUB
#!/bin/sh
echo "swig must not be needed to install the gem (called: swig \$*)" >&2
touch "$work/swig-was-called"
exit 127
STUB
chmod +x "$work/no-swig/swig"
install_path="$work/no-swig:$PATH"

# build/ruby-gems: the installed gem test-interop.sh and bench/run.sh reuse.
# MAKEFLAGS: both cores for the extension's 60 files (gem install runs make serially).
gems="$root/build/ruby-gems"
rm -rf "$gems"
PATH="$install_path" MAKEFLAGS=-j2 gem install --local --no-document --install-dir "$gems" "$gem_file" >/dev/null
[ ! -e "$work/swig-was-called" ] || { echo "test-ruby: gem install ran swig" >&2; exit 1; }

"$root/scripts/interop-build.sh" advlock

export GEM_PATH="$gems:$(gem env gempath)" ADVLOCK_TEST_GEM_HOME="$gems"
"$root/scripts/with-postgres.sh" -- \
  "$root/scripts/with-mariadb.sh" --plugin-load-add=metadata_lock_info -- bash -c '
  set -euo pipefail
  ruby -e "Dir[File.join(ARGV[0], \"test/*_test.rb\")].sort.each { |f| require f }" "'"$root"'/bindings/ruby"
  "'"$root"'/tests/examples/check_skip_if_running.sh" "'"$root"'/examples/ruby/skip_if_running.rb" "$ADVLOCK_TEST_PG_STATE"
  PATH="'"$install_path"'" MAKEFLAGS=-j2 "'"$root"'/bindings/ruby/test/check_system_libadvlock.sh" \
    "'"$gem_file"'" "'"$root"'/build/interop" "'"$work"'/system-libadvlock"
  [ ! -e "'"$work"'/swig-was-called" ] || { echo "test-ruby: gem install ran swig" >&2; exit 1; }
'
