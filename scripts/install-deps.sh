#!/usr/bin/env bash
# Install the Debian packages advlock needs, for the groups named on the command
# line (build, postgres, mysql, test, fuzz, python, java, ruby, deb). Does nothing when they are all present,
# so the README commands stay fast on a machine that has them.
#
#   scripts/install-deps.sh build postgres
set -euo pipefail

declare -A group_packages=(
  [build]="cmake ninja-build g++ pkg-config libpq-dev libmariadb-dev nlohmann-json3-dev python3"
  [postgres]="postgresql"
  [mysql]="mariadb-server mariadb-client"
  [test]="googletest libgtest-dev nlohmann-json3-dev python3 binutils pgbouncer iproute2 nftables doxygen"
  [fuzz]="clang-14 libclang-rt-14-dev"
  [python]="python3 python3-venv python3-dev ccache"
  [java]="openjdk-17-jdk-headless maven swig patchelf"
  [ruby]="ruby ruby-dev rake ruby-minitest ruby-pg ruby-mysql2 ruby-activerecord swig"
  [deb]="dpkg-dev file man-db"
)

if [ $# -eq 0 ]; then
  echo "usage: $0 GROUP... (groups: ${!group_packages[*]})" >&2
  exit 64
fi

wanted=()
for group in "$@"; do
  if [ -z "${group_packages[$group]+set}" ]; then
    echo "install-deps: unknown group '$group' (known: ${!group_packages[*]})" >&2
    exit 64
  fi
  read -r -a packages <<<"${group_packages[$group]}"
  wanted+=("${packages[@]}")
done

missing=()
for package in "${wanted[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then
    sudo_cmd=(sudo)
  else
    echo "install-deps: missing packages (${missing[*]}) and not root; install them, or run as root" >&2
    exit 69
  fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q >/dev/null
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
