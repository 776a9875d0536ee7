"""advlock for asyncio: the same locks, options and exceptions as advlock,
awaited, with each task in the place of a thread.

    import advlock.aio

    async with await advlock.aio.connect(url, application_name="nightly") as session:
        lock = await session.try_lock("daily_sales")          # None when held elsewhere
        async with session.lock("export", timeout=30):         # raises advlock.NotAcquired
            ...
        async with session.lock_all(["daily_sales", "inventory"], timeout=30):  # all or none
            ...
        session.on_lost(lambda why: job.cancel())             # called on the loop
        await session.wait_lost()                              # raises advlock.LockLost

    async with aconn.transaction():                           # a psycopg.AsyncConnection
        await advlock.aio.xact_lock(aconn, "ledger", timeout=5)

Cancelling a waiting task (asyncio.wait_for and asyncio.timeout too) ends
its wait on the server and leaves no lock. The loss is watched on the loop
(Session.loss_fd with loop.add_reader): no thread. The C library's lock
calls block, so a session runs them on two threads of its own, never on the
loop: one for waits, one after another, one for everything else; a thousand
tasks waiting on one session still cost one thread (see _session.py).
"""
from __future__ import annotations

import asyncio
import os
from typing import Callable, Optional, Union

from .. import connect as _connect
from .. import _advlock
from .._advlock import Registry
from . import _lane
from ._session import Lock, LockSet, PendingLock, Session
from ._xact import try_xact_lock, xact_lock


async def connect(url: str = "", *, application_name: Optional[str] = None, allow_standby: bool = False,
                  allow_pooler: bool = False, heartbeat_interval: Optional[float] = None,
                  heartbeat_deadline: Optional[float] = None, stop_grace: Optional[float] = None,
                  registry: "Union[Registry, str, os.PathLike[str], None]" = None,
                  on_lost: Optional[Callable[[str], None]] = None) -> Session:
    """Open a lock session, as advlock.connect (the same options and errors), off the event loop: on the
    session's own thread for calls. on_lost(why) is called on the event loop. Cancelling the task waits for
    the connection attempt to end, closes what it opened, and raises CancelledError."""
    loop = asyncio.get_running_loop()
    calls = _lane.Lane("advlock-aio-calls")

    def open_session() -> _advlock.Session:
        return _connect(url, application_name=application_name, allow_standby=allow_standby,
                        allow_pooler=allow_pooler, heartbeat_interval=heartbeat_interval,
                        heartbeat_deadline=heartbeat_deadline, stop_grace=stop_grace, registry=registry)

    try:
        native = await _lane.call(calls, open_session)  # cancelled: a session opened in the race is freed, closed
    except BaseException:
        calls.stop()
        raise
    session = Session(native, loop, calls)
    if on_lost is not None:
        session.on_lost(on_lost)
    return session


__all__ = ["connect", "Session", "Lock", "LockSet", "PendingLock", "try_xact_lock", "xact_lock"]
