#!/usr/bin/env python3
"""Check the shared library's exported symbols against advlock.h.

Every defined dynamic symbol must be an advlock_ function declared in the
header (nothing of the C++ core, libstdc++ or libpq leaks out), and every
function the header declares must be exported.

    check_exports.py LIBRARY HEADER
"""
import re
import subprocess
import sys


def exported(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TtDdBbRrWwVviu":
            names.add(parts[2].split("@")[0])
    return names


def declared(header):
    text = open(header, encoding="utf-8").read()
    return set(re.findall(r"ADVLOCK_API\s[^;(]*?\b(advlock_\w+)\s*\(", text, re.S))


def main():
    library, header = sys.argv[1], sys.argv[2]
    have, want = exported(library), declared(header)
    # Symbols the toolchain always defines in a shared object.
    toolchain = {"_init", "_fini", "__bss_start", "_edata", "_end"}
    stray = sorted(n for n in have - want if n not in toolchain)
    missing = sorted(want - have)
    for name in stray:
        print(f"exported but not declared in advlock.h: {name}")
    for name in missing:
        print(f"declared in advlock.h but not exported: {name}")
    if not want:
        print("no ADVLOCK_API declarations found in the header")
        return 1
    print(f"{len(want)} functions declared, {len(have & want)} exported, {len(stray)} stray")
    return 1 if stray or missing else 0


if __name__ == "__main__":
    sys.exit(main())
