#!/usr/bin/env bash
# bundle-native.sh JNI_LIBRARY RESOURCES_DIR MANIFEST_OUT
#
# Makes the jar's native directory self-contained: copies libadvlock_java.so
# and every shared library it pulls in (libpq, the MariaDB client and theirs:
# OpenSSL, Kerberos, LDAP, GnuTLS, ...) into RESOURCES_DIR, gives each a
# RUNPATH of $ORIGIN so the dynamic loader finds them beside one another once
# the loader has extracted them, and refuses to finish if anything outside
# glibc and libstdc++/libgcc would still come from the host.
#
# Why carry the host's .so files instead of linking libpq.a/libmariadb.a:
# Debian ships no static Kerberos (libgssapi_krb5) nor GnuTLS, both of which
# libpq.a and libldap need, so a fully static link is impossible here.
#
# It also computes what the host must provide (the highest GLIBC_x.y and
# GLIBCXX_x.y.z symbol versions the shipped files require) and writes it
#   - to RESOURCES_DIR/../index.properties, which the Java loader reads to
#     extract the files and to word its errors, and
#   - to MANIFEST_OUT, which maven-jar-plugin merges into the jar's manifest.
set -euo pipefail
jni=$1 out=$2 manifest=$3
platform=$(basename "$out")

# glibc's own libraries (they require GLIBC_PRIVATE, i.e. the exact glibc
# build they came with, so they must come from the host) and the C++ runtime.
host_provided='^(linux-vdso\.so\.1|ld-linux-x86-64\.so\.2|libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|libresolv\.so\.2|libstdc\+\+\.so\.6|libgcc_s\.so\.1)$'

for tool in ldd readelf patchelf; do
  command -v "$tool" >/dev/null || { echo "bundle-native: $tool not found (scripts/install-deps.sh java installs it)" >&2; exit 69; }
done

rm -rf "$out" && mkdir -p "$out"
cp "$jni" "$out/libadvlock_java.so"
libraries=(libadvlock_java.so)

# ldd lists the whole closure, so one pass suffices.
while read -r name arrow path _; do
  [ "$arrow" = "=>" ] || continue
  [[ $name =~ $host_provided ]] && continue
  if [ "$path" = "not" ]; then
    echo "bundle-native: $name, needed by $jni, is not installed" >&2
    exit 1
  fi
  cp -L "$path" "$out/$name"
  chmod u+w "$out/$name"
  libraries+=("$name")
done < <(ldd "$jni")

for lib in "${libraries[@]}"; do
  patchelf --set-rpath '$ORIGIN' "$out/$lib"
done

# Every NEEDED entry must now be either in the bundle or host-provided.
for lib in "${libraries[@]}"; do
  while read -r needed; do
    [[ $needed =~ $host_provided ]] && continue
    [ -e "$out/$needed" ] || { echo "bundle-native: $lib needs $needed, which is neither bundled nor glibc/libstdc++" >&2; exit 1; }
  done < <(readelf -d "$out/$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
done

# The versions a shipped file requires (readelf -V: its .gnu.version_r).
required_versions() {
  local lib
  for lib in "${libraries[@]}"; do
    readelf -V --wide "$out/$lib" | sed -n '/\.gnu\.version_r/,$p' | { grep -oE "Name: $1[A-Z0-9_.]*" || true; } | sed 's/Name: //'
  done | sort -uV
}
if required_versions GLIBC_ | grep -q GLIBC_PRIVATE; then
  echo "bundle-native: a bundled library needs GLIBC_PRIVATE (it is part of glibc; add it to host_provided)" >&2
  exit 1
fi
glibc=$(required_versions GLIBC_ | grep -E '^GLIBC_[0-9.]+$' | tail -1 | sed 's/GLIBC_//')
glibcxx=$(required_versions GLIBCXX_ | grep -E '^GLIBCXX_[0-9.]+$' | tail -1 | sed 's/GLIBCXX_//')
[ -n "$glibc" ] || { echo "bundle-native: found no GLIBC_ symbol version in the bundle" >&2; exit 1; }

{
  echo "# Written by bundle-native.sh: what NativeLibrary extracts and what the host must provide."
  echo "platforms=$platform"
  echo "$platform.glibc=$glibc"
  echo "$platform.glibcxx=${glibcxx:-none}"
  echo "$platform.libraries=${libraries[*]}"
} > "$out/../index.properties"

{
  echo "Advlock-Native-Platforms: $platform"
  echo "Advlock-Native-Glibc-Minimum: $glibc"
  echo "Advlock-Native-Libstdcxx-Minimum: GLIBCXX_${glibcxx:-none}"
} > "$manifest"

echo "bundle-native: $platform, ${#libraries[@]} files, needs glibc >= $glibc and libstdc++ with GLIBCXX_$glibcxx"
