#!/usr/bin/env bash
# check_install.sh BUILD_DIR CONSUMER_DIR [SANITIZERS]
# `cmake --install` into a fresh prefix, then build and run the consumer with
# find_package(advlock CONFIG) and with pkg-config --cflags --libs advlock.
set -euo pipefail
build=$1 consumer=$2 sanitize=${3:-}
work=$(mktemp -d /tmp/advlock-install.XXXXXX)
trap 'rm -rf "$work"' EXIT

flags=""
[ -n "$sanitize" ] && flags="-fsanitize=$sanitize"

cmake --install "$build" --prefix "$work/prefix" >/dev/null
echo "installed:"; (cd "$work/prefix" && find . -type f -o -type l | sort | sed 's/^/  /')

cmake -S "$consumer" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
cmake --build "$work/cmake-build" >/dev/null
"$work/cmake-build/consumer"

pc_dir=$(dirname "$(find "$work/prefix" -name advlock.pc)")
export PKG_CONFIG_PATH=$pc_dir
libdir=$(pkg-config --variable=libdir advlock)
# shellcheck disable=SC2046
cc -std=c99 $flags "$consumer/consumer.c" -o "$work/consumer-pc" $(pkg-config --cflags --libs advlock) -Wl,-rpath,"$libdir"
"$work/consumer-pc"
# The installed command from cron's bare environment (env -i: no
# LD_LIBRARY_PATH, no PATH): its RUNPATH must find libadvlock.so.0, and be
# relative to the command, so the installed tree still works once moved.
if [ -x "$work/prefix/bin/advlock" ]; then
  runpath=$(readelf -d "$work/prefix/bin/advlock" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
  case $runpath in
    '$ORIGIN/'*) echo "installed advlock: RUNPATH $runpath" ;;
    *) echo "installed advlock: RUNPATH is '$runpath', want \$ORIGIN/../LIBDIR" >&2; exit 1 ;;
  esac
  mv "$work/prefix" "$work/moved"
  env -i "$work/moved/bin/advlock" --version
  mkdir -m 0700 "$work/locks"
  env -i "$work/moved/bin/advlock" run --db "local:$work/locks" --name install_check -- /bin/true
  echo "install check: the installed advlock runs under env -i, from a moved prefix too"
fi
echo "install check: find_package and pkg-config consumers both work"
