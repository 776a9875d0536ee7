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
advlock_status_from_sqlstate); this module only runs them through the cursor.
"""
from __future__ import annotations

import sys
from typing import Any, Optional, Type

from . import _advlock
from .errors import Error, Misuse, NotAcquired, class_for_status

# libpq's PGTransactionStatusType, which both drivers report, and PGpipelineStatus's "off".
_IDLE, _ACTIVE, _INTRANS, _INERROR = 0, 1, 2, 3
_PIPELINE_OFF = 0


def _check_connection(conn: Any, doing: str) -> None:
    """Refuse, with the reason, a connection the lock cannot join a transaction of."""
    psycopg = sys.modules.get("psycopg")
    if psycopg is not None and isinstance(conn, psycopg.AsyncConnection):
        raise TypeError(f"advlock.{doing} takes a synchronous connection, got a psycopg.AsyncConnection; with one, "
                        "run the statement yourself: await cur.execute(advlock.sql('try_xact_lock', key))")
    if not hasattr(conn, "cursor") or not hasattr(conn, "info") or not hasattr(conn, "autocommit"):
        raise TypeError(f"advlock.{doing} takes a psycopg or psycopg2 connection, got {type(conn).__name__}")
    if conn.closed:
        raise Misuse(f"advlock.{doing}: the driver connection is closed")
    _sync_pipeline(conn)
    status = int(conn.info.transaction_status)
    if status == _INERROR:
        raise Misuse(f"advlock.{doing}: the connection's transaction has already failed; roll it back first")
    if status == _ACTIVE:
        raise Misuse(f"advlock.{doing}: the connection is busy with another statement")
    if status == _IDLE and conn.autocommit:
        raise Misuse(f"advlock.{doing}: a transaction-scoped lock needs a transaction: the connection is in "
                     "autocommit mode, so the lock would end with its own statement (use `with "
                     "conn.transaction():` (psycopg) or autocommit=False)")


def _sync_pipeline(conn: Any) -> None:
    """In psycopg's pipeline mode, send what is queued and wait for the server's
    answer: only then is the transaction status current (libpq learns it at a
    sync), and after an error the pipeline drops every statement until one."""
    status = int(getattr(getattr(conn, "pgconn", None), "pipeline_status", _PIPELINE_OFF) or _PIPELINE_OFF)
    if status != _PIPELINE_OFF:  # psycopg2 has no pipeline mode
        with conn.pipeline() as pipeline:
            pipeline.sync()


def _sqlstate(error: BaseException) -> Optional[str]:
    """The server's SQLSTATE of a driver error (psycopg: .sqlstate, psycopg2: .pgcode)."""
    return getattr(error, "sqlstate", None) or getattr(error, "pgcode", None)


def _is_driver_error(error: BaseException) -> bool:
    return isinstance(error, Exception) and (hasattr(error, "sqlstate") or hasattr(error, "pgcode"))


def _error_class(error: BaseException) -> Type[Error]:
    """What the driver's error means, as the core maps a SQLSTATE for its own
    sessions, as the class every other advlock error of that status has."""
    return class_for_status(_advlock.status_from_sqlstate(_sqlstate(error)))


def _as_advlock_error(error: BaseException, doing: str, label: str) -> Error:
    sqlstate = _sqlstate(error) or ""
    cls = _error_class(error)
    first_line = (str(error).strip().splitlines() or [type(error).__name__])[0]
    return cls(f"{doing} {label}: {first_line}", sqlstate=sqlstate)


def _run(conn: Any, statement: str, *, row: bool = False) -> Any:
    """One statement through the caller's cursor; with row, the first column of its one row.
    (Fetching is what makes psycopg's pipeline mode send it and report its errors now.)"""
    cursor = conn.cursor()
    try:
        cursor.execute(statement)
        if not row:
            return None
        answer = cursor.fetchone()
        return None if answer is None else answer[0]
    finally:
        cursor.close()


def _try(conn: Any, key: _advlock.Key, shared: bool, doing: str, label: str) -> bool:
    try:
        answer = _run(conn, _advlock.sql("try_xact_lock", key, shared), row=True)
    except Exception as error:
        if not _is_driver_error(error):
            raise
        raise _as_advlock_error(error, doing, label) from error
    return _advlock.sql_result("try_xact_lock", key, bool(answer))


def _wait(conn: Any, key: _advlock.Key, shared: bool, timeout_ms: int, doing: str, label: str) -> bool:
    """The core's timed wait (advlock_xact_wait_sql), its steps in its order:
    inside a savepoint, lock_timeout set for the wait only. On any failure,
    rolling back to the savepoint drops a lock granted in a race and the
    changed setting, and leaves the caller's transaction usable."""
    def step(name: str, saved: str = "") -> str:
        return _advlock.xact_wait_sql(name, key, shared, timeout_ms, saved)

    try:
        _run(conn, step("savepoint"))
    except Exception as error:
        if not _is_driver_error(error):
            raise
        raise _as_advlock_error(error, doing, label) from error
    try:
        saved = _run(conn, step("set_timeout"), row=True)
        _run(conn, step("lock"), row=True)
        # Put the caller's lock_timeout back before the savepoint's changes join the transaction.
        _run(conn, step("restore_timeout", "" if saved is None else str(saved)), row=True)
        _run(conn, step("release"))
        return True
    except BaseException as failure:  # KeyboardInterrupt too: psycopg cancelled the statement
        try:
            _sync_pipeline(conn)
            _run(conn, step("rollback"))
            _run(conn, step("release"))
        except Exception:
            pass  # the connection is gone: the failure says why, the server drops the transaction
        if not _is_driver_error(failure):
            raise
        if _error_class(failure) is NotAcquired:  # the wait's lock_timeout ran out
            return False
        raise _as_advlock_error(failure, doing, label) from failure


def try_xact_lock(conn: Any, key: Any, *, shared: bool = False, registry: Optional[_advlock.Registry] = None) -> bool:
    """Take the lock inside conn's transaction without waiting.

    True: held until the transaction ends. False: another session holds it.
    On a default (non-autocommit) connection the driver opens the transaction
    if none is open yet, as it does for any statement. Raises Misuse when conn
    is in autocommit mode outside a transaction block, or its transaction has
    failed; Deadlock, PermissionDenied, ServerError (with .sqlstate) for the
    server's errors.
    """
    k = _advlock.to_key(key, registry)
    _check_connection(conn, "try_xact_lock")
    return _try(conn, k, shared, "try_xact_lock", _advlock.key_label(key, registry))


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
    k = _advlock.to_key(key, registry)
    label = _advlock.key_label(key, registry)
    timeout_ms = _advlock.timeout_ms(timeout)
    _check_connection(conn, "xact_lock")
    if timeout_ms == 0:
        acquired = _try(conn, k, shared, "xact_lock", label)
    else:
        acquired = _wait(conn, k, shared, timeout_ms, "xact_lock", label)
    if not acquired:
        raise NotAcquired(f"lock {label} is held by another session; "
                          + ("timeout=0: no wait" if timeout_ms == 0 else f"gave up after {timeout} s")
                          + " (the transaction is still usable)")
