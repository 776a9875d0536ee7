#!/usr/bin/env bash
# Build the advlock gem from bindings/ruby and install it into a directory, as
# a user would: `gem build` (advlock.gemspec stages the sources and the SWIG
# wrapper, scripts/ruby-gem-stage.sh) and `gem install --install-dir` (the
# native extension compiles with mkmf).
#
#   scripts/ruby-gem.sh GEM_HOME_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gem_home=${1:?usage: ruby-gem.sh GEM_HOME_DIR}
mkdir -p "$gem_home"
gem_home=$(cd "$gem_home" && pwd)
cd "$root/bindings/ruby"
rm -f advlock-*.gem
gem build advlock.gemspec >/dev/null
gem install --local --no-document --install-dir "$gem_home" advlock-*.gem
