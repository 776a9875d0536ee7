#!/usr/bin/env python3
"""Cross-language interop: the advlock command, a C++ program, a Java program,
a Python script and a Ruby script derive the same keys, and contend for the
same named and paired locks on one PostgreSQL and one MariaDB, where exactly
one of them may hold the lock at a time.

    interop.py --pg-url URL [--mysql-url URL] --cli BIN --c BIN --cpp BIN --python PYTHON \
               --java-classpath JAR[:...] --ruby-gem-path DIR [--rounds N] [--hold-ms MS]

Each contender appends "E ns LANGUAGE PID" on entering and "X ns ..." on
leaving its critical section to one shared log (CLOCK_MONOTONIC, O_APPEND
lines); the checker walks the events in time order and counts the moments two
held the lock at once. Exits 1 on any key mismatch, overlap, or a contender
that failed or never held the lock.
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
KEY_SPECS = ["name:daily_sales", "name:a", "name:Ünïcödé 日本 🔒", "name:" + "x" * 200,
             "pair:100:1", "pair:-5:2147483647"]
LOCK_SPECS = ["name:interop_job", "pair:4242:7"]

# CLI contender: one `advlock run` per round; the command logs its own entry and exit.
CLI_ROUND = """import os, sys, time
log, hold = sys.argv[1], int(sys.argv[2])
with open(log, "a", buffering=1) as out:
    out.write(f"E {time.monotonic_ns()} cli {os.getppid()}\\n")
    time.sleep(hold / 1000)
    out.write(f"X {time.monotonic_ns()} cli {os.getppid()}\\n")
"""


class Languages:
    def __init__(self, args):
        self.args = args
        java = ["java", "-cp", args.java_classpath, str(HERE / "Contender.java")]
        ruby = ["ruby", str(HERE / "contender.rb")]
        self.env = dict(os.environ, GEM_PATH=args.ruby_gem_path + os.pathsep + os.environ.get("GEM_PATH", ""))
        self.programs = {"c": [args.c], "cpp": [args.cpp], "java": java, "python": [args.python, str(HERE / "contender.py")],
                         "ruby": ruby}

    def keys(self):
        """{language: {spec: key text}}, the advlock command and psql included."""
        found = {}
        for language, command in self.programs.items():
            out = subprocess.run(command + ["keys"] + KEY_SPECS, check=True, capture_output=True, text=True,
                                 env=self.env).stdout
            found[language] = dict(line.split("\t", 1) for line in out.splitlines())
        found["cli"], found["psql"] = {}, {}
        for spec in KEY_SPECS:
            kind, _, rest = spec.partition(":")
            if kind != "name":
                continue
            out = subprocess.run([self.args.cli, "key", rest], check=True, capture_output=True, text=True).stdout
            found["cli"][spec] = out.splitlines()[0]
            sql = subprocess.run([self.args.cli, "key", rest, "--sql"], check=True, capture_output=True,
                                 text=True).stdout
            found["psql"][spec] = subprocess.run(["psql", self.args.pg_url, "-XAtq", "-c", sql], check=True,
                                                 capture_output=True, text=True).stdout.strip()
        return found

    def contenders(self, url, spec, log):
        rounds, hold = str(self.args.rounds), str(self.args.hold_ms)
        started = []
        for language, command in self.programs.items():
            started.append((language, subprocess.Popen(command + ["contend", url, spec, log, rounds, hold],
                                                       env=self.env)))
        kind, _, rest = spec.partition(":")
        target = ["--name", rest] if kind == "name" else ["--key", rest]
        round_cmd = [self.args.cli, "run", "--db", url, *target, "--wait", "10m", "--", sys.executable, "-c",
                     CLI_ROUND, log, hold]
        loop = "for i in $(seq 1 %s); do \"$@\" || exit $?; done" % rounds
        started.append(("cli", subprocess.Popen(["bash", "-c", loop, "cli-loop", *round_cmd])))
        return started


def check_log(log, rounds):
    events = []
    for line in Path(log).read_text(encoding="utf-8").splitlines():
        kind, ns, language, pid = line.split(" ")
        events.append((int(ns), kind, language, pid))
    events.sort()
    holders, overlaps, sections = set(), 0, {}
    for _, kind, language, pid in events:
        if kind == "E":
            if holders:
                overlaps += 1
            holders.add((language, pid))
            sections[language] = sections.get(language, 0) + 1
        else:
            holders.discard((language, pid))
    return overlaps, sections


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pg-url", required=True)
    parser.add_argument("--mysql-url")
    parser.add_argument("--cli", required=True)
    parser.add_argument("--c", required=True)
    parser.add_argument("--cpp", required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument("--java-classpath", required=True)
    parser.add_argument("--ruby-gem-path", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hold-ms", type=int, default=30)
    args = parser.parse_args()
    languages = Languages(args)
    failures = []

    keys = languages.keys()
    for spec in KEY_SPECS:
        seen = {language: found[spec] for language, found in keys.items() if spec in found}
        if len(set(seen.values())) != 1:
            failures.append(f"keys differ for {spec!r}: {seen}")
        else:
            print(f"interop: {spec[:40]!r} -> {next(iter(seen.values()))} in {', '.join(sorted(seen))}")

    servers = [("postgresql", args.pg_url)] + ([("mariadb", args.mysql_url)] if args.mysql_url else [])
    scenarios = 0
    for server, url in servers:
        for spec in LOCK_SPECS:
            scenarios += 1
            with tempfile.NamedTemporaryFile(prefix="advlock-interop.", suffix=".log", delete=False) as f:
                log = f.name
            statuses = {language: process.wait(timeout=600)
                        for language, process in languages.contenders(url, spec, log)}
            overlaps, sections = check_log(log, args.rounds)
            os.unlink(log)
            summary = ", ".join(f"{language} {sections.get(language, 0)}" for language in sorted(statuses))
            print(f"interop: {server} {spec}: {sum(sections.values())} critical sections ({summary}), "
                  f"{overlaps} overlaps")
            for language, status in statuses.items():
                if status != 0:
                    failures.append(f"{server} {spec}: the {language} contender exited {status}")
                elif sections.get(language, 0) != args.rounds:
                    failures.append(f"{server} {spec}: {language} held the lock {sections.get(language, 0)} "
                                    f"times, not {args.rounds}")
            if overlaps:
                failures.append(f"{server} {spec}: {overlaps} times two contenders held the lock at once")
    if not args.mysql_url:
        print("interop: MariaDB skipped: no --mysql-url")
    print(f"interop: {len(KEY_SPECS)} key specs, {scenarios} contention scenarios, {len(failures)} failures")
    for failure in failures:
        print(f"interop: FAILED {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
