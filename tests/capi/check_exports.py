#!/usr/bin/env python3
"""Check the shared library's exported symbols against advlock.h and the ABI list.

Every defined dynamic symbol must be an advlock_ function declared in the
header (nothing of the C++ core, libstdc++ or libpq leaks out), every function
the header declares must be exported, in the version node NODE, and the set
must be exactly the committed list capi/abi/advlock.abi (whose signatures the
build compiles against the header), so removing, renaming or adding a function
without changing the list fails.

    check_exports.py LIBRARY HEADER ABI_LIST NODE
"""
import re
import subprocess
import sys


def exported(library):
    """{name: version node} of the defined dynamic symbols."""
    out = subprocess.run(["nm", "-D", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    names = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TtDdBbRrWwVviu":
            name, _, node = parts[2].partition("@")
            names[name] = node.lstrip("@")
    return names


def listed(abi_list):
    text = re.sub(r"/\*.*?\*/", "", open(abi_list, encoding="utf-8").read(), flags=re.S)
    return set(re.findall(r"\b(advlock_\w+)\s*\(", text))


def declared(header):
    text = open(header, encoding="utf-8").read()
    return set(re.findall(r"ADVLOCK_API\s[^;(]*?\b(advlock_\w+)\s*\(", text, re.S))


def main():
    library, header, abi_list, node = sys.argv[1:5]
    nodes = exported(library)
    have, want, pinned = set(nodes), declared(header), listed(abi_list)
    # Symbols the toolchain always defines in a shared object.
    toolchain = {"_init", "_fini", "__bss_start", "_edata", "_end"}
    stray = sorted(n for n in have - want if n not in toolchain)
    missing = sorted(want - have)
    for name in stray:
        print(f"exported but not declared in advlock.h: {name}")
    for name in missing:
        print(f"declared in advlock.h but not exported: {name}")
    unlisted, gone = sorted(want - pinned), sorted(pinned - want)
    for name in unlisted:
        print(f"declared in advlock.h but not in {abi_list}: {name} (add it when the ABI is meant to grow)")
    for name in gone:
        print(f"listed in {abi_list} but no longer declared: {name} (a removal breaks every program linked to it)")
    wrong_node = sorted(n for n in have & want if nodes[n] != node)
    for name in wrong_node:
        print(f"{name} is in version node {nodes[name] or '(none)'}, not {node} (capi/advlock.map)")
    if not want:
        print("no ADVLOCK_API declarations found in the header")
        return 1
    print(f"{len(want)} functions declared, {len(have & want)} exported in {node}, {len(pinned)} listed, "
          f"{len(stray)} stray")
    return 1 if stray or missing or unlisted or gone or wrong_node else 0


if __name__ == "__main__":
    sys.exit(main())
