#!/usr/bin/env python3
"""Check that every README code block marked with an example file matches it.

A block is marked by an HTML comment on the line before its fence:

    <!-- example: examples/c/skip_if_running.c -->
    ```c
    ...
    ```

    check_readme_examples.py REPO_ROOT
"""
import pathlib
import re
import sys

MARK = re.compile(r"<!-- example: (\S+) -->\n```[a-z+]*\n(.*?)```", re.S)


def main():
    root = pathlib.Path(sys.argv[1])
    readme = (root / "README.md").read_text(encoding="utf-8")
    blocks = MARK.findall(readme)
    if not blocks:
        print("README.md has no marked example blocks")
        return 1
    failures = 0
    for path, block in blocks:
        source = (root / path).read_text(encoding="utf-8")
        if block != source:
            print(f"README.md block for {path} differs from the file; copy the file into the README")
            failures += 1
        else:
            print(f"ok: {path}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
