#!/usr/bin/env bash
# Build the advlock gem and install it into a directory, as a user would:
# `rake gem` in bindings/ruby (stages the sources, generates the SWIG wrapper:
# pkg/advlock-VERSION.gem) and `gem install --install-dir` (the native
# extension compiles with mkmf). Arguments after -- go to extconf.rb, e.g.
# --with-advlock-dir=PREFIX.
#
#   scripts/ruby-gem.sh GEM_HOME_DIR [-- EXTCONF_ARGS...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gem_home=${1:?usage: ruby-gem.sh GEM_HOME_DIR [-- EXTCONF_ARGS...]}
shift
mkdir -p "$gem_home"
gem_home=$(cd "$gem_home" && pwd)
cd "$root/bindings/ruby"
rm -rf pkg
rake gem >/dev/null
gem install --local --no-document --install-dir "$gem_home" pkg/advlock-*.gem "$@"
