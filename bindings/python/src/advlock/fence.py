"""advlock.fence_check: the fencing-token check, run by the job inside its own
data transaction, on its own driver connection (psycopg, psycopg2, or any
DB-API connection whose errors carry the SQLSTATE), before it commits.

A lock taken with fence=True carries a token greater than every earlier one
for its key. The check fails (FencedOut) when a newer token was issued, i.e.
another holder took the lock since; otherwise it holds a row lock until the
transaction ends, so the next holder's grant waits for this commit: committed
work of an old and a new holder can never overlap. The SQL text and what its
error means come from the core (advlock_fence_check_sql,
advlock_status_from_sqlstate); this module only runs it through the cursor.
"""
from __future__ import annotations

import sys
from typing import Any, Optional

from . import _advlock
from .errors import Misuse
from ._xact_steps import _ACTIVE, _IDLE, _INERROR, _as_advlock_error, _is_driver_error
from .xact import _run, _sync_pipeline

# SQLSTATEs of a check that found no fence function or table: the DDL was not run in this database.
_UNDEFINED_FUNCTION, _UNDEFINED_TABLE = "42883", "42P01"


def fence_sql() -> str:
    """The statements creating the fence table public.advlock_fence and its
    functions (idempotent): run them once per database, as
    ``advlock sql fence | psql`` does, before taking locks with fence=True."""
    return _advlock.fence_sql()


def _transaction_status(conn: Any) -> Optional[int]:
    """libpq's transaction status as the driver reports it (psycopg: conn.info;
    psycopg2: conn.info or get_transaction_status()), or None when it does not."""
    info = getattr(conn, "info", None)
    status = getattr(info, "transaction_status", None)
    if status is None and callable(getattr(conn, "get_transaction_status", None)):
        status = conn.get_transaction_status()
    return None if status is None else int(status)


def _check_connection(conn: Any) -> None:
    """Refuse, with the reason, a connection on which the check's row lock
    would not last until the job's commit."""
    psycopg = sys.modules.get("psycopg")
    if psycopg is not None and isinstance(conn, psycopg.AsyncConnection):
        raise TypeError("advlock.fence_check takes a synchronous connection, got a psycopg.AsyncConnection; with "
                        "one, run the statement yourself in the transaction: "
                        "await cur.execute(advlock.fence_check_sql(lock.server_key, lock.fence_token))")
    if not callable(getattr(conn, "cursor", None)):
        raise TypeError(f"advlock.fence_check takes a DB-API connection (psycopg, psycopg2...), "
                        f"got {type(conn).__name__}")
    if getattr(conn, "closed", False):
        raise Misuse("advlock.fence_check: the driver connection is closed")
    _sync_pipeline(conn)
    status = _transaction_status(conn)
    if status == _INERROR:
        raise Misuse("advlock.fence_check: the connection's transaction has already failed; roll it back (its "
                     "work is lost either way)")
    if status == _ACTIVE:
        raise Misuse("advlock.fence_check: the connection is busy with another statement")
    if status == _IDLE and getattr(conn, "autocommit", False):
        raise Misuse("advlock.fence_check: the check must run inside the job's data transaction, but the "
                     "connection is in autocommit mode outside a transaction block, so its row lock would end "
                     "with the statement; run it in `with conn.transaction():` (psycopg) or with "
                     "autocommit=False, before the commit of the work it guards")


def fence_check(conn: Any, lock: Any, token: Optional[int] = None, *,
                registry: Optional[_advlock.Registry] = None) -> None:
    """Check the fencing token inside conn's transaction, before committing
    the work it guards.

        lock = session.try_lock("export", fence=True)
        with psycopg.connect(url) as conn:      # the job's own connection
            ...                                 # the job's writes
            advlock.fence_check(conn, lock)     # then conn commits

    lock: a Lock taken with fence=True (its server_key and fence_token are
    checked), or the key held on the server (Key, name, int, pair; names
    looked up in registry when given; for a slot lock, the slot's key) with
    its token, for a job its holder passed them on to, e.g. from
    `advlock run --fence`: Key.parse(os.environ["ADVLOCK_FENCE_KEY"]) and
    int(os.environ["ADVLOCK_FENCE_TOKEN"]) (a str is a name, not key text).

    Returns None when the token is still the lock's latest; no newer one can
    be issued before the transaction ends. On a default (non-autocommit)
    connection the driver opens the transaction if none is open yet, as for
    any statement.

    Raises FencedOut (a LockLost) when a newer holder took the lock: roll the
    transaction back. Misuse when the lock was taken without fence=True, or
    the connection is in autocommit mode outside a transaction (the row lock
    would end at once) or its transaction failed; ServerError (with
    .sqlstate) for other server errors, such as a database without the fence
    table (run advlock.fence_sql() there).
    """
    if isinstance(lock, _advlock.Lock):
        if token is not None:
            raise TypeError("advlock.fence_check(conn, lock) takes the token from the Lock; pass a token only "
                            "with a key: fence_check(conn, key, token)")
        token = lock.fence_token  # Misuse unless taken with fence=True
        key = lock.server_key
        label = _advlock.key_label(lock.key, lock.session.registry)
        if lock.slot:
            label += f" slot {lock.slot} (key {key})"
    else:
        if token is None:
            raise TypeError("advlock.fence_check(conn, key, token): a key needs the token its holder was issued "
                            "(Lock.fence_token, or ADVLOCK_FENCE_TOKEN under `advlock run --fence`)")
        if isinstance(token, bool) or not isinstance(token, int):
            raise TypeError(f"advlock.fence_check: token must be an int, got {type(token).__name__}")
        key = _advlock.to_key(lock, registry)
        label = _advlock.key_label(lock, registry)
    statement = _advlock.fence_check_sql(key, token)
    _check_connection(conn)
    try:
        _run(conn, statement, row=True)
    except Exception as error:
        if not _is_driver_error(error):
            raise
        failure = _as_advlock_error(error, "fence check of lock", f"{label}, token {token}")
        if failure.sqlstate in (_UNDEFINED_FUNCTION, _UNDEFINED_TABLE):
            failure = type(failure)(f"{failure.message} (is the fence table missing? create it in this database "
                                    "from advlock.fence_sql(), as `advlock sql fence | psql` does)",
                                    sqlstate=failure.sqlstate)
        raise failure from error
