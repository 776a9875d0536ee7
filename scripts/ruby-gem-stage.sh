#!/usr/bin/env bash
# Stage what the Ruby gem compiles into bindings/ruby/ext/advlock/ (build
# outputs, ignored by git): the C ABI and core sources under vendor/, and the
# SWIG-generated wrapper. advlock.gemspec runs this on `gem build` from a
# checkout, so the .gem carries everything its extension needs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ext="$root/bindings/ruby/ext/advlock"
command -v swig >/dev/null || { echo "ruby-gem-stage: swig not found (Debian: apt-get install swig)" >&2; exit 69; }
rm -rf "$ext/vendor" "$ext/advlock_ruby_wrap.cxx"
mkdir -p "$ext/vendor/capi" "$ext/vendor/swig"
cp -r "$root/core" "$ext/vendor/core"
find "$ext/vendor/core" -name CMakeLists.txt -delete
cp -r "$root/capi/include" "$root/capi/src" "$ext/vendor/capi/"
cp "$root/bindings/swig/advlock_swig.hpp" "$ext/vendor/swig/"
swig -c++ -ruby -I"$root/bindings/swig" -o "$ext/advlock_ruby_wrap.cxx" "$ext/advlock_ruby.i"
