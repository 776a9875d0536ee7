"""Transaction-scoped locks on a psycopg.AsyncConnection: advlock.xact's
operations (advlock._xact_steps, written once for both), their steps awaited
through the connection's own async cursor.

On cancellation psycopg cancels the running statement on the server and
waits for it to end before raising CancelledError (AsyncConnection.wait);
the operation then rolls its wait's savepoint back, as for Ctrl-C with a
synchronous connection, so no lock is left and the transaction stays usable.
"""
from __future__ import annotations

import sys
from typing import Any, Optional

from .. import _advlock, _xact_steps


def _check_connection(conn: Any, doing: str) -> None:
    psycopg = sys.modules.get("psycopg")
    if psycopg is None or not isinstance(conn, psycopg.AsyncConnection):
        raise TypeError(f"advlock.aio.{doing} takes a psycopg.AsyncConnection, got {type(conn).__name__}; for a "
                        f"synchronous psycopg or psycopg2 connection, use advlock.{doing}(conn, key)")


async def _perform(conn: Any, step: _xact_steps.Step) -> Any:
    if isinstance(step, _xact_steps.SyncPipeline):
        if _xact_steps.in_pipeline(conn):
            async with conn.pipeline() as pipeline:
                await pipeline.sync()
        return None
    cursor = conn.cursor()
    try:
        await cursor.execute(step.statement)
        if not step.row:
            return None
        answer = await cursor.fetchone()
        return None if answer is None else answer[0]
    finally:
        await cursor.close()


async def _drive(conn: Any, steps: _xact_steps.Steps) -> Any:
    return await _xact_steps.drive(steps, lambda step: _perform(conn, step))


async def try_xact_lock(conn: Any, key: Any, *, shared: bool = False,
                        registry: Optional[_advlock.Registry] = None) -> bool:
    """advlock.try_xact_lock for a psycopg.AsyncConnection: True when taken (held until the transaction
    ends), False when another session holds it; the same checks and errors (Misuse in autocommit mode
    outside a transaction)."""
    _check_connection(conn, "try_xact_lock")
    return bool(await _drive(conn, _xact_steps.try_xact_lock(conn, key, shared, registry)))


async def xact_lock(conn: Any, key: Any, *, timeout: Optional[float] = None, shared: bool = False,
                    registry: Optional[_advlock.Registry] = None) -> None:
    """advlock.xact_lock for a psycopg.AsyncConnection: wait up to timeout seconds (None: as long as it
    takes; 0: no wait) inside the transaction, in a savepoint with its own lock_timeout. On NotAcquired,
    Deadlock, Canceled, or the task's cancellation (asyncio.wait_for / asyncio.timeout too: psycopg cancels
    the statement on the server) the transaction is still usable and no lock is left behind."""
    _check_connection(conn, "xact_lock")
    await _drive(conn, _xact_steps.xact_lock(conn, key, timeout, shared, registry))
