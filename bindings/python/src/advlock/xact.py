"""Transaction-scoped locks on the caller's own psycopg (3) or psycopg2
connection, inside the caller's transaction: the lock ends with COMMIT or
ROLLBACK, so the work and the lock cannot part ways.

advlock runs the statements through its own libpq on the driver's PGconn*
when the driver uses that same libpq (psycopg's "python" and "c"
implementations, psycopg2 built from source). Drivers installed as binary
wheels bundle a private libpq whose PGconn must not be touched by another
libpq; then the core's SQL text runs through the driver's own cursor instead,
which covers try_xact_lock() and waits without a timeout.
"""
from __future__ import annotations

from typing import Any, Optional

from . import _advlock
from .errors import Misuse, Unsupported


def _pgconn_pointer(conn: Any) -> int:
    pgconn = getattr(conn, "pgconn", None)  # psycopg 3
    if pgconn is not None and hasattr(pgconn, "pgconn_ptr"):
        return int(pgconn.pgconn_ptr or 0)
    if hasattr(conn, "pgconn_ptr"):  # psycopg2 >= 2.8
        return int(conn.pgconn_ptr or 0)
    raise TypeError(f"advlock transaction locks take a psycopg or psycopg2 connection, got {type(conn).__name__}")


def _shares_our_libpq() -> bool:
    # One libpq in the process means the driver's is advlock's own.
    return _advlock.loaded_libpq_count() <= 1


def _run_through_driver(conn: Any, statement: str) -> Any:
    if getattr(conn, "autocommit", False):
        raise Misuse("a transaction-scoped lock needs a transaction: the connection is in autocommit mode, so the "
                     "lock would end with its own statement (use `with conn.transaction():` or autocommit=False)")
    cursor = conn.cursor()
    try:
        cursor.execute(statement)
        return cursor.fetchone()[0]
    finally:
        cursor.close()


def try_xact_lock(conn: Any, key: Any, *, shared: bool = False, registry: Optional[_advlock.Registry] = None) -> bool:
    """Take the lock inside conn's current transaction without waiting.

    True: held until the transaction ends. False: another session holds it.
    Raises Misuse when conn is not inside a transaction.
    """
    k = _advlock.to_key(key, registry)
    pointer = _pgconn_pointer(conn)
    if _shares_our_libpq():
        return _advlock.xact_try_lock(pointer, k, shared)
    answer = _run_through_driver(conn, _advlock.sql("try_xact_lock", k, shared))
    return _advlock.sql_result("try_xact_lock", k, bool(answer))


def xact_lock(conn: Any, key: Any, *, timeout: Optional[float] = None, shared: bool = False,
              registry: Optional[_advlock.Registry] = None) -> None:
    """Take the lock inside conn's current transaction, waiting up to timeout
    seconds (None: as long as it takes). The wait runs in a savepoint: on
    NotAcquired the transaction is still usable and its lock_timeout unchanged.
    """
    k = _advlock.to_key(key, registry)
    pointer = _pgconn_pointer(conn)
    if _shares_our_libpq():
        _advlock.xact_lock(pointer, k, timeout, shared)
        return
    if timeout is not None:
        raise Unsupported("a timed transaction-lock wait needs the driver to use the system libpq, but this "
                          "process has a driver's private libpq loaded (a binary wheel such as psycopg[binary] or "
                          "psycopg2-binary); install psycopg without [binary] (or psycopg2 from source), or use "
                          "try_xact_lock() / timeout=None")
    _run_through_driver(conn, _advlock.sql("xact_lock", k, shared))
