"""Run by test_xact_drivers.py in a child process with PSYCOPG_IMPL set
(psycopg picks its implementation once per process): the transaction-scoped
locks behave the same whichever implementation runs the statements.

    python xact_driver_check.py URL
"""
import os
import sys

import psycopg

import advlock


def libpq_files() -> set:
    """The libpq libraries mapped into this process (a binary wheel brings its own)."""
    with open("/proc/self/maps") as maps:
        return {line.split()[-1] for line in maps if "/libpq" in line}


def lock_timeout(conn) -> str:
    return conn.execute("SELECT current_setting('lock_timeout')").fetchone()[0]


def main(url: str) -> None:
    assert psycopg.pq.__impl__ == os.environ["PSYCOPG_IMPL"], psycopg.pq.__impl__
    with advlock.connect(url) as session, psycopg.connect(url) as conn:
        # Nothing run yet: the driver's implicit BEGIN opens the transaction.
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        assert advlock.try_xact_lock(conn, "driver_check") is True
        assert session.try_lock("driver_check") is None
        conn.commit()
        held = session.try_lock("driver_check")
        assert held is not None, "the commit did not end the lock"

        # A timed wait: NotAcquired, and the transaction and its lock_timeout as they were.
        conn.execute("SET LOCAL lock_timeout = '7s'")
        try:
            advlock.xact_lock(conn, "driver_check", timeout=0.1)
            raise AssertionError("xact_lock got a lock another session holds")
        except advlock.NotAcquired as error:
            assert "'driver_check' (key " in str(error), error
        assert lock_timeout(conn) == "7s"
        held.release()
        advlock.xact_lock(conn, "driver_check", timeout=30)
        assert lock_timeout(conn) == "7s"
        assert session.try_lock("driver_check") is None

        # A wait the server cancels (57014): Canceled, the transaction goes on.
        other = session.try_lock(advlock.Key(502, 1))
        conn.execute("SET LOCAL statement_timeout = '100ms'")
        try:
            advlock.xact_lock(conn, advlock.Key(502, 1))
            raise AssertionError("xact_lock got a lock another session holds")
        except advlock.Canceled:
            pass
        assert conn.execute("SELECT 1").fetchone() == (1,)
        conn.rollback()
        assert session.try_lock("driver_check") is not None
        other.release()
    print("ok", psycopg.pq.__impl__, "libpq files:", len(libpq_files()), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
