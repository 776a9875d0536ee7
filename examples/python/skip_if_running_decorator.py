#!/usr/bin/env python3
"""examples/python/skip_if_running.py with the decorator: the daily_sales job
runs on one host at a time and exits 3 (as `advlock run` does) while another
run holds the lock, so a wrapper script or monitoring can tell a skip from a
run (cron itself ignores exit codes: it mails output).

    python3 examples/python/skip_if_running_decorator.py postgresql://batch@db/sales [SECONDS]
"""
import sys
import time

import advlock

URL = sys.argv[1] if len(sys.argv) > 1 else ""


@advlock.skip_if_running("daily_sales", url=URL, application_name="daily_sales",
                         on_skip=lambda: print("daily_sales: already running elsewhere, skipping"),
                         exit_code=advlock.CONFLICT_EXIT_CODE)
def daily_sales(seconds: float) -> None:
    print("daily_sales: holding the lock, working", flush=True)
    time.sleep(seconds)  # the real work; a LockLost at the end means it may have overlapped another run


if __name__ == "__main__":
    try:
        daily_sales(float(sys.argv[2]) if len(sys.argv) > 2 else 1)
    except advlock.LockLost as lost:
        print(f"daily_sales: lock lost: {lost}", file=sys.stderr)
        sys.exit(75)
    except advlock.Error as error:
        print(f"advlock: {error}", file=sys.stderr)
        sys.exit(1)
