#!/usr/bin/env python3
"""Check that docs/cli.md holds every subcommand's --help text word for word.

    check_cli_doc.py ADVLOCK_BINARY REPO_ROOT
"""
import pathlib
import subprocess
import sys


def main():
    binary, root = sys.argv[1], pathlib.Path(sys.argv[2])
    doc = (root / "docs" / "cli.md").read_text(encoding="utf-8")
    failures = 0
    for command in ("run", "hold", "status", "key", "sql", "check"):
        text = subprocess.run([binary, command, "--help"], capture_output=True, text=True, check=True).stdout
        if text not in doc:
            print(f"docs/cli.md lacks the current `advlock {command} --help`; paste it in")
            failures += 1
        else:
            print(f"ok: advlock {command} --help")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
