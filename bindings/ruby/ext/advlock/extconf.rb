# frozen_string_literal: true

# Compiles advlock/native: the SWIG wrapper (advlock_ruby_wrap.cxx) and the
# advlock C ABI with its C++ core, all staged under vendor/ by
# advlock.gemspec at `gem build`, into one extension linked against libpq and MariaDB Connector/C.
require "mkmf"

vendor = File.join(__dir__, "vendor")
abort "advlock: #{vendor} is missing; build the gem with `gem build advlock.gemspec` in bindings/ruby of a checkout" unless File.directory?(vendor)

pkg_config("libpq") or abort "advlock: libpq not found (Debian: apt-get install libpq-dev)"
pkg_config("libmariadb") or abort "advlock: MariaDB Connector/C not found (Debian: apt-get install libmariadb-dev)"
$CXXFLAGS << " -std=c++17 -fvisibility=hidden -Wno-unused-parameter"
$INCFLAGS << " -I#{vendor}/core -I#{vendor}/capi/include -I#{vendor}/swig"

sources = Dir.chdir(__dir__) { Dir["vendor/core/**/*.cpp", "vendor/capi/src/*.cpp"] } + ["advlock_ruby_wrap.cxx"]
$srcs = sources.map { |path| File.basename(path) }
$VPATH.concat(sources.map { |path| File.join("$(srcdir)", File.dirname(path)) }.uniq)
$objs = $srcs.map { |src| src.sub(/\.(cpp|cxx)\z/, ".o") }

create_makefile("advlock/native")
