#!/usr/bin/env python3
"""Interop contender in Python (tests/interop/interop.py runs it).

    contender.py keys SPEC...                      print "SPEC<TAB>KEY" for each
    contender.py contend URL SPEC LOG ROUNDS HOLD_MS

SPEC is name:TEXT or pair:K1:K2. contend takes the lock ROUNDS times (waiting
for it) and appends "E ns" / "X ns" (CLOCK_MONOTONIC) around each hold.
"""
import os
import sys
import time

import advlock


def key_of(spec):
    kind, _, rest = spec.partition(":")
    if kind == "name":
        return advlock.Key.from_name(rest)
    k1, k2 = rest.split(":")
    return advlock.Key(int(k1), int(k2))


def main(argv):
    if argv[0] == "keys":
        for spec in argv[1:]:
            print(f"{spec}\t{key_of(spec)}")
        return 0
    url, spec, log, rounds, hold_ms = argv[1], argv[2], argv[3], int(argv[4]), int(argv[5])
    with advlock.connect(url, application_name="interop-python") as session, open(log, "a", buffering=1) as out:
        for _ in range(rounds):
            with session.lock(key_of(spec), timeout=None):
                out.write(f"E {time.monotonic_ns()} python {os.getpid()}\n")
                time.sleep(hold_ms / 1000)
                out.write(f"X {time.monotonic_ns()} python {os.getpid()}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
