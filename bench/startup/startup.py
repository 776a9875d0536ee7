"""Start-up of a cron job under advlock, each next to its baseline, same run.

  local: `advlock run --db local --name N -- true` vs `flock /run/lock/N true`
  postgres: `advlock run --db URL --name N -- true` vs `psql URL -Atc 'SELECT 1'`
    (one statement on a new connection), and vs the floor: a C program linked
    to libpq that connects and takes one lock in one statement
    (libpq_one_statement.c), what any client taking a lock pays at least,
    and, given --advlock-before, vs the same command built from an earlier
    commit (bench/startup/install-before.sh): "no slower than today"

Each process is started and waited for from here, as cron's shell would; rounds
run them in a random order, RUNS of each per round, and report each
round's median wall time per run. The command is the installed one (`cmake
--install` into a prefix): what users run, with its RUNPATH, not the build
tree's.

  python3 bench/startup/startup.py --advlock PREFIX/bin/advlock --url URL \
      --libpq-floor BUILD/bench/advlock_startup_libpq --lock-dir DIR --rounds 5 \
      [--advlock-before BEFORE/bin/advlock --before-commit COMMIT] > startup.json
"""
import argparse
import json
import random
import statistics
import subprocess
import time


def median_run_ms(command, runs):
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        samples.append((time.perf_counter() - start) * 1e3)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--advlock", required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--libpq-floor", required=True, help="the built advlock_startup_libpq")
    parser.add_argument("--lock-dir", required=True, help="flock(1)'s lock file goes here")
    parser.add_argument("--advlock-before", help="advlock built from an earlier commit")
    parser.add_argument("--before-commit", help="that commit, for the report")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    contenders = {
        "advlock_local": [args.advlock, "run", "--db", "local", "--name", "bench_startup", "--", "true"],
        "flock": ["flock", f"{args.lock_dir}/bench_startup", "true"],
        "advlock_postgres": [args.advlock, "run", "--db", args.url, "--name", "bench_startup", "--", "true"],
        "psql": ["psql", args.url, "-Atc", "SELECT 1"],
        "libpq_floor": [args.libpq_floor, args.url],
    }
    if args.advlock_before:
        contenders["advlock_postgres_before"] = [args.advlock_before, "run", "--db", args.url, "--name",
                                                 "bench_startup", "--", "true"]
    for command in contenders.values():  # warm the page cache; fail early on a broken set-up
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    results = {name: [] for name in contenders}
    for _ in range(args.rounds):
        for name in random.sample(list(contenders), len(contenders)):
            results[name].append(median_run_ms(contenders[name], args.runs))
    results["runs_per_round"] = args.runs
    if args.advlock_before:
        results["before_commit"] = args.before_commit
    print(json.dumps(results))


if __name__ == "__main__":
    main()
