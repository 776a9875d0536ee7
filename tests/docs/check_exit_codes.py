#!/usr/bin/env python3
"""Check that docs/cli.md's exit code table lists exactly the codes the command has.

The codes are cli/exit_codes.hpp's constants; cron wrappers and scripts branch
on them, so a code added there without a row (or a row left for a code that
went) must fail here rather than be found by a user. The run help's
"Exit codes:" paragraph, which docs/cli.md holds word for word
(check_cli_doc.py), must name each of them too.

    check_exit_codes.py REPO_ROOT
"""
import pathlib
import re
import sys

# Not constants of exit_codes.hpp: the job's child process exits with them when
# exec fails (cli/job/fork_with_pipe.cpp), as a shell does; the table lists them.
EXEC_FAILURE_CODES = {126, 127}


def main():
    root = pathlib.Path(sys.argv[1])
    header = (root / "cli" / "exit_codes.hpp").read_text(encoding="utf-8")
    codes = {int(value) for value in re.findall(r"constexpr int \w+ = (\d+);", header)}
    if not codes:
        print("cli/exit_codes.hpp: no `constexpr int NAME = N;` found; update this check")
        return 1

    doc = (root / "docs" / "cli.md").read_text(encoding="utf-8")
    section = re.search(r"^## Exit codes\n(.*?)(?=^## )", doc, re.S | re.M)
    if not section:
        print("docs/cli.md has no '## Exit codes' section")
        return 1
    rows = set()
    for first_cell in re.findall(r"^\| ([^|]+) \|", section.group(1), re.M):
        rows.update(int(number) for number in re.findall(r"(?<![+\d])\d+(?![+\d])", first_cell))

    failures = 0
    for code in sorted(codes - rows):
        print(f"docs/cli.md: exit code {code} (cli/exit_codes.hpp) has no row in the Exit codes table")
        failures += 1
    for code in sorted(rows - codes - EXEC_FAILURE_CODES):
        print(f"docs/cli.md: the Exit codes table has a row for {code}, which cli/exit_codes.hpp does not define")
        failures += 1

    run_help = re.search(r"^Exit codes: (.*?)\n\n", doc, re.S | re.M)
    if not run_help:
        print("docs/cli.md: the run help's 'Exit codes:' paragraph is missing")
        return 1
    named = {int(number) for number in re.findall(r"(?<![+\d])\d+(?![+\d])", run_help.group(1))}
    for code in sorted(codes - {0} - named):  # 0 is the COMMAND's own success
        print(f"advlock run --help: its Exit codes paragraph does not name {code} (cli/exit_codes.hpp)")
        failures += 1

    if failures == 0:
        print(f"ok: exit codes {', '.join(map(str, sorted(codes)))} each have a row and are in run --help")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
