#!/usr/bin/env python3
"""Try + release cycle from Python, with its two baselines measured in the same
run against the same server:

  - advlock's Python binding: session.try_lock(key) + lock.release()
  - the same through advlock.aio on an asyncio loop: await session.try_lock(key),
    await lock.release() (each call handed to the session's thread and back)
  - the C ABI underneath (advlock_bench's BM_AdvlockCapiTryRelease, a C++ program)
  - psycopg 3 running the same two statements on a dedicated autocommit connection
    (SELECT pg_try_advisory_lock(k), SELECT pg_advisory_unlock(k); psycopg
    prepares them on the server after a few executions)

Rounds run the four in a random order; each measures for about --seconds.
Writes JSON: {"python": [µs per cycle, ...], "python_aio": [...], "capi": [...], "psycopg": [...]}.

    lock_cycle.py --url URL --capi-bench build/bench/bench/advlock_bench [--rounds 5] > out.json
"""
import argparse
import asyncio
import json
import random
import subprocess
import sys
import time

import psycopg

import advlock
import advlock.aio


def timed_cycles(cycle, seconds, run_cycles=None):
    """µs per cycle; run_cycles(n) runs n cycles (default: cycle() n times)."""
    run_cycles = run_cycles or (lambda n: [cycle() for _ in range(n)])
    run_cycles(50)  # warm up (and let psycopg prepare its statements)
    count, start = 0, time.perf_counter()
    while True:
        run_cycles(100)
        count += 100
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed / count * 1e6


def python_binding(url, seconds):
    key = advlock.Key(424251)
    with advlock.connect(url, application_name="bench-python") as session:
        def cycle():
            session.try_lock(key).release()
        return timed_cycles(cycle, seconds)


def python_asyncio(url, seconds):
    key = advlock.Key(424253)
    loop = asyncio.new_event_loop()

    async def cycles(session, n):
        for _ in range(n):
            await (await session.try_lock(key)).release()

    try:
        session = loop.run_until_complete(advlock.aio.connect(url, application_name="bench-python-aio"))
        try:
            return timed_cycles(None, seconds, lambda n: loop.run_until_complete(cycles(session, n)))
        finally:
            loop.run_until_complete(session.close())
    finally:
        loop.close()


def psycopg_driver(url, seconds):
    with psycopg.connect(url, autocommit=True, application_name="bench-psycopg") as conn:
        cur = conn.cursor()

        def cycle():
            cur.execute("SELECT pg_try_advisory_lock(%s)", (424252,))
            got = cur.fetchone()[0]
            cur.execute("SELECT pg_advisory_unlock(%s)", (424252,))
            if not (got and cur.fetchone()[0]):
                raise RuntimeError("psycopg cycle failed")
        return timed_cycles(cycle, seconds)


def c_abi(binary, url):
    # The program measures for its own minimum time (1 s, set in lock_cycle_bench.cpp).
    out = subprocess.run([binary, "--benchmark_filter=^BM_AdvlockCapiTryRelease", "--benchmark_format=json"],
                         env={"ADVLOCK_BENCH_PG_URL": url},
                         capture_output=True, text=True, check=True).stdout
    [run] = [b for b in json.loads(out)["benchmarks"] if b.get("run_type") == "iteration"]
    assert run["time_unit"] == "us", run["time_unit"]
    return run["real_time"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--capi-bench", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    results = {"python": [], "python_aio": [], "capi": [], "psycopg": [], "python_version": sys.version.split()[0],
               "psycopg_version": psycopg.__version__, "psycopg_impl": psycopg.pq.__impl__}
    measures = {"python": lambda: python_binding(args.url, args.seconds),
                "python_aio": lambda: python_asyncio(args.url, args.seconds),
                "capi": lambda: c_abi(args.capi_bench, args.url),
                "psycopg": lambda: psycopg_driver(args.url, args.seconds)}
    for _ in range(args.rounds):
        order = list(measures)
        random.shuffle(order)
        for name in order:
            results[name].append(measures[name]())
    json.dump(results, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
