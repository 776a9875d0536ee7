"""Transaction-scoped locks on the caller's own psycopg (3) or psycopg2
connection, inside the caller's transaction: the lock ends with COMMIT or
ROLLBACK, so the work and the lock cannot part ways.

The statements run through the caller's own cursor, whichever psycopg
implementation it is ("python", "c" or "binary", whose wheel bundles a libpq
of its own) and for psycopg2 alike. So the driver sees them as its own: on a
default (non-autocommit) connection its implicit BEGIN opens the transaction
the lock then lives in, as for any other statement, and the driver's own
locking and state tracking stay right. The SQL text, the timed wait's steps
and what an answer or a server error means come from the advlock core
(advlock_sql, advlock_sql_result, advlock_xact_wait_sql,
advlock_status_from_sqlstate). What the operations do is written once, in
advlock._xact_steps, which advlock.aio drives for a psycopg.AsyncConnection;
this module only runs its steps through the cursor.
"""
from __future__ import annotations

import sys
from typing import Any, Optional

from . import _advlock, _xact_steps


def _check_connection(conn: Any, doing: str) -> None:
    """Refuse, with what to use instead, a connection whose calls are coroutines."""
    psycopg = sys.modules.get("psycopg")
    if psycopg is not None and isinstance(conn, psycopg.AsyncConnection):
        raise TypeError(f"advlock.{doing} takes a synchronous connection, got a psycopg.AsyncConnection; for one, "
                        f"use `await advlock.aio.{doing}(aconn, key)`")
    _xact_steps.check_driver_connection(conn, doing)


def _sync_pipeline(conn: Any) -> None:
    """The SyncPipeline step (see advlock._xact_steps)."""
    if _xact_steps.in_pipeline(conn):
        with conn.pipeline() as pipeline:
            pipeline.sync()


def _run(conn: Any, statement: str, *, row: bool = False) -> Any:
    """The Run step: one statement through the caller's cursor; with row, the first column of its one row."""
    cursor = conn.cursor()
    try:
        cursor.execute(statement)
        if not row:
            return None
        answer = cursor.fetchone()
        return None if answer is None else answer[0]
    finally:
        cursor.close()


def _perform(conn: Any, step: _xact_steps.Step) -> Any:
    if isinstance(step, _xact_steps.SyncPipeline):
        return _sync_pipeline(conn)
    return _run(conn, step.statement, row=step.row)


def _drive(conn: Any, steps: _xact_steps.Steps) -> Any:
    async def perform(step: _xact_steps.Step) -> Any:  # never suspends: _perform is synchronous
        return _perform(conn, step)

    return _xact_steps.run_now(_xact_steps.drive(steps, perform))


def try_xact_lock(conn: Any, key: Any, *, shared: bool = False, registry: Optional[_advlock.Registry] = None) -> bool:
    """Take the lock inside conn's transaction without waiting.

    True: held until the transaction ends. False: another session holds it.
    On a default (non-autocommit) connection the driver opens the transaction
    if none is open yet, as it does for any statement. Raises Misuse when conn
    is in autocommit mode outside a transaction block, or its transaction has
    failed; Deadlock, PermissionDenied, ServerError (with .sqlstate) for the
    server's errors.
    """
    _check_connection(conn, "try_xact_lock")
    return bool(_drive(conn, _xact_steps.try_xact_lock(conn, key, shared, registry)))


def xact_lock(conn: Any, key: Any, *, timeout: Optional[float] = None, shared: bool = False,
              registry: Optional[_advlock.Registry] = None) -> None:
    """Take the lock inside conn's transaction (which the driver opens if
    needed, as for try_xact_lock()), waiting up to timeout seconds (None: as
    long as it takes, whatever the transaction's own lock_timeout; 0: no wait).

    The wait runs in a savepoint with its own lock_timeout: on NotAcquired,
    Deadlock, Canceled (a cancel or statement_timeout ended it) or Ctrl-C the
    transaction is still usable, no lock is left behind, and the
    transaction's lock_timeout is as it was.
    """
    _check_connection(conn, "xact_lock")
    _drive(conn, _xact_steps.xact_lock(conn, key, timeout, shared, registry))
