#!/usr/bin/env python3
"""The daily_sales job in Python: runs on one host at a time, skips (exit 3)
while another run holds the lock. The same example as examples/c and
examples/cpp; `pip install ./bindings/python` first.

    python3 examples/python/skip_if_running.py postgresql://batch@db/sales [SECONDS]
"""
import sys
import time

import advlock


def main(url: str, seconds: float) -> int:
    with advlock.connect(url, application_name="daily_sales") as session:
        lock = session.try_lock("daily_sales")
        if lock is None:
            print("daily_sales: already running elsewhere, skipping")
            return 3
        with lock:
            print("daily_sales: holding the lock, working", flush=True)
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:  # the real work, in steps
                time.sleep(min(0.1, seconds))
                lock.ensure_held()  # no round trip; raises advlock.LockLost
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "", float(sys.argv[2]) if len(sys.argv) > 2 else 1))
    except advlock.LockLost as lost:
        print(f"daily_sales: lock lost, stopping: {lost}", file=sys.stderr)
        sys.exit(75)
    except advlock.Error as error:
        print(f"advlock: {error}", file=sys.stderr)
        sys.exit(1)
