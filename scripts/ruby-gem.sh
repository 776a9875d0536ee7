#!/usr/bin/env bash
# Build the advlock gem from bindings/ruby and install it into a directory:
# stages the C ABI and core sources and the SWIG-generated wrapper into
# ext/advlock/ (build outputs, ignored by git), then `gem build` and
# `gem install --install-dir` (the native extension compiles with mkmf).
#
#   scripts/ruby-gem.sh GEM_HOME_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gem_home=${1:?usage: ruby-gem.sh GEM_HOME_DIR}
mkdir -p "$gem_home"
gem_home=$(cd "$gem_home" && pwd)
ruby_dir="$root/bindings/ruby"
ext="$ruby_dir/ext/advlock"

rm -rf "$ext/vendor" "$ext/advlock_ruby_wrap.cxx"
mkdir -p "$ext/vendor/capi" "$ext/vendor/swig"
cp -r "$root/core" "$ext/vendor/core"
find "$ext/vendor/core" -name CMakeLists.txt -delete
cp -r "$root/capi/include" "$root/capi/src" "$ext/vendor/capi/"
cp "$root/bindings/swig/advlock_swig.hpp" "$ext/vendor/swig/"
swig -c++ -ruby -I"$root/bindings/swig" -o "$ext/advlock_ruby_wrap.cxx" "$ext/advlock_ruby.i"

cd "$ruby_dir"
rm -f advlock-*.gem
gem build advlock.gemspec >/dev/null
mkdir -p "$gem_home"
gem install --local --no-document --install-dir "$gem_home" advlock-*.gem
