#!/usr/bin/env bash
# `gem install advlock-X.gem -- --with-advlock-dir=PREFIX` against a libadvlock
# installed with `cmake --install` into a temporary PREFIX: a missing or
# incomplete PREFIX fails at install time naming what is missing; a complete
# one gives an extension that loads PREFIX/lib/libadvlock.so.0 (its rpath, no
# LD_LIBRARY_PATH) and takes a lock on the server at ADVLOCK_TEST_PG_URL.
# PATH is used as given (test-ruby.sh hides swig: installing must not need it).
#
#   check_system_libadvlock.sh GEM_FILE CMAKE_BUILD_DIR WORK_DIR
set -euo pipefail
gem_file=${1:?usage: check_system_libadvlock.sh GEM_FILE CMAKE_BUILD_DIR WORK_DIR}
build=${2:?usage: check_system_libadvlock.sh GEM_FILE CMAKE_BUILD_DIR WORK_DIR}
work=${3:?usage: check_system_libadvlock.sh GEM_FILE CMAKE_BUILD_DIR WORK_DIR}
: "${ADVLOCK_TEST_PG_URL:?ADVLOCK_TEST_PG_URL is not set (run under scripts/with-postgres.sh)}"
fail() { echo "check_system_libadvlock: FAILED: $*" >&2; exit 1; }
unset LD_LIBRARY_PATH
rm -rf "$work"
mkdir -p "$work"

# Only the library's own install rules (capi/): the command need not be built.
prefix="$work/prefix"
cmake --install "$build/capi" --prefix "$prefix" >/dev/null
[ -f "$prefix/include/advlock.h" ] && [ -e "$prefix/lib/libadvlock.so" ] || fail "cmake --install gave no $prefix/{include/advlock.h,lib/libadvlock.so}"

# A missing prefix, then one without its library: gem install must fail and say what is missing.
expect_install_error() { # EXPECTED_TEXT EXTCONF_ARGS...
  local expected=$1 out
  shift
  if out=$(gem install --local --no-document --install-dir "$work/gems-bad" "$gem_file" -- "$@" 2>&1); then
    fail "gem install -- $* succeeded"
  fi
  grep -qF -- "$expected" <<<"$out" || fail "gem install -- $* did not say '$expected':"$'\n'"$out"
  echo "ok: gem install -- $* fails: $expected"
}
expect_install_error "--with-advlock-dir=$work/none: no such directory" --with-advlock-dir="$work/none"
mkdir -p "$work/incomplete"
cp -r "$prefix/include" "$work/incomplete/"
expect_install_error "$work/incomplete/lib/libadvlock.so not found" --with-advlock-dir="$work/incomplete"

gems="$work/gems"
gem install --local --no-document --install-dir "$gems" "$gem_file" -- --with-advlock-dir="$prefix" >/dev/null
native=$(find "$gems/extensions" -name 'native.so' | head -n 1)
[ -n "$native" ] || fail "no native.so under $gems/extensions"
linked=$(ldd "$native" | awk '$1 == "libadvlock.so.0" { print ($3 == "not" ? "not found" : $3) }')
[ "$linked" = "$prefix/lib/libadvlock.so.0" ] || fail "$native loads libadvlock.so.0 from '${linked:-nowhere}', not $prefix/lib:"$'\n'"$(ldd "$native")"
echo "ok: the installed extension loads $linked"

GEM_PATH="$gems:$(gem env gempath)" ruby -e '
  require "advlock"
  ext = $LOADED_FEATURES.grep(%r{/advlock/native\.so\z}).first
  abort "advlock/native came from #{ext}, not #{ARGV[1]}" unless ext.start_with?(ARGV[1])
  taken = Advlock.connect(ARGV[0]) { |s| s.with_lock("ruby_system_libadvlock", timeout: 0) { true } }
  abort "the lock was not taken" unless taken
  puts "ok: a lock taken through the system libadvlock #{Advlock.library_version}"
' "$ADVLOCK_TEST_PG_URL" "$gems"
