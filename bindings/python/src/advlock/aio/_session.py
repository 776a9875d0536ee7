"""advlock.aio's Session and Lock: the synchronous advlock.Session's calls,
awaited.

What the C library offers decides how: its lock waits, tries and releases
are blocking calls, and only the loss has a pollable file descriptor. So:

- the loss is watched with loop.add_reader on Session.loss_fd(): no thread;
- the blocking calls run on the session's two lanes (daemon threads, started
  at first use), never on the loop: waits (lock() with a timeout) one after
  another on one, everything else (tries, releases, verify, holders) on the
  other. N tasks waiting on one session cost one thread, not N. Two lanes,
  not one, because a release must not queue behind a wait: a task waiting for
  the Lock another task of the same session holds would wait for ever for
  the release queued behind it. The session serialises its round trips
  anyway (a wait on the server keeps it busy), so little is lost;
- each task is the owner of its Locks for reentrant=True and the Deadlock
  checks (the C ABI's owner_id), as each thread is in the synchronous API;
- a cancelled task's wait is ended by a cancel token of its own (cancelled on
  the default executor: that sends the server a cancel request); the call is
  waited for, never abandoned, and a lock granted in the race is released.
"""
from __future__ import annotations

import asyncio
import itertools
import threading
import time
import weakref
from typing import Any, Awaitable, Callable, Generator, Generic, Iterable, List, Optional, TypeVar

from .. import _advlock
from .. import KeyLike
from .._advlock import Holders, Key, Registry
from ..errors import LockLost, Misuse
from . import _lane

_owner_ids = itertools.count(1)
_task_owner_ids: "weakref.WeakKeyDictionary[asyncio.Task[Any], int]" = weakref.WeakKeyDictionary()


def _current_owner_id() -> int:
    """The calling task's owner id for the C ABI: the same for all its calls, never reused."""
    task = asyncio.current_task()
    if task is None:
        return next(_owner_ids)
    owner = _task_owner_ids.get(task)
    if owner is None:
        owner = _task_owner_ids[task] = next(_owner_ids)
    return owner


class _Held:
    """What a Lock and a LockSet of an advlock.aio.Session share: the synchronous object's calls, awaited where
    they take a round trip."""

    def __init__(self, native: Any, session: "Session") -> None:
        self._native_held = native
        self._session = session
        self._released = False

    async def release(self) -> None:
        """Release now. Raises LockLost when the lock had been lost (the work may have overlapped another
        holder), Misuse when already released or the session is closed. Not cancellable once started: a
        cancelled task's release still completes, then CancelledError is raised."""
        self._released = True
        await self._session._call(self._native_held.release)

    async def verify(self, strict: bool = False) -> None:
        """One round trip proving the session still holds its locks (strict: also pg_locks for each key)."""
        await self._session._call(lambda: self._native_held.verify(strict))

    def ensure_held(self) -> None:
        """No round trip: raises LockLost once the lock is known lost."""
        self._native_held.ensure_held()

    @property
    def held(self) -> bool:
        return bool(self._native_held.held)

    @property
    def shared(self) -> bool:
        return bool(self._native_held.shared)

    @property
    def session(self) -> "Session":
        return self._session

    async def _leave(self) -> None:
        if not self._released:
            await self.release()

    def __repr__(self) -> str:
        return "<advlock.aio" + repr(self._native_held)[len("<advlock"):]


class Lock(_Held):
    """One held lock of an advlock.aio.Session: advlock.Lock's calls, awaited where they take a round trip.
    Release it with ``await lock.release()`` or by leaving its ``async with`` block."""

    def __init__(self, lock: _advlock.Lock, session: "Session") -> None:
        super().__init__(lock, session)
        self._lock = lock

    @property
    def key(self) -> Key:
        return self._lock.key

    @property
    def server_key(self) -> Key:
        return self._lock.server_key

    @property
    def slot(self) -> int:
        return self._lock.slot

    @property
    def fenced(self) -> bool:
        return self._lock.fenced

    @property
    def fence_token(self) -> int:
        return self._lock.fence_token

    @property
    def reentrant(self) -> bool:
        return self._lock.reentrant

    async def __aenter__(self) -> "Lock":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._leave()


class LockSet(_Held):
    """A set of locks of an advlock.aio.Session taken all or nothing (try_lock_all, lock_all): advlock.LockSet's
    calls, awaited where they take a round trip. ``await locks.release()`` or leaving its ``async with`` block
    releases every one together, in one round trip on PostgreSQL."""

    def __init__(self, locks: _advlock.LockSet, session: "Session") -> None:
        super().__init__(locks, session)
        self._locks = locks

    @property
    def keys(self) -> List[Key]:
        """The keys, in the order they were asked for."""
        return self._locks.keys

    def __len__(self) -> int:
        return len(self._locks)

    async def __aenter__(self) -> "LockSet":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._leave()


_HeldT = TypeVar("_HeldT", Lock, LockSet)


class PendingLock(Generic[_HeldT]):
    """What Session.lock() and lock_all() return: await it for the Lock or LockSet (``lock = await
    session.lock(...)``), or use it as ``async with session.lock(...) as lock:``, which releases on leaving."""

    def __init__(self, acquire: Callable[[], Awaitable[_HeldT]]) -> None:
        self._acquire = acquire
        self._lock: Optional[_HeldT] = None

    def __await__(self) -> Generator[Any, None, _HeldT]:
        return self._acquire().__await__()

    async def __aenter__(self) -> _HeldT:
        self._lock = await self._acquire()
        return self._lock

    async def __aexit__(self, *exc: object) -> None:
        lock, self._lock = self._lock, None
        if lock is not None:
            await lock._leave()


class Session:
    """An advlock session for asyncio: one dedicated database connection that holds locks; open it with
    ``await advlock.aio.connect(url)``, close it with ``await session.close()`` or ``async with session:``.

    Locks, options and exceptions are the synchronous advlock.Session's (NotAcquired, LockLost, Deadlock,
    Misuse...), with each asyncio task in the place of a thread: Locks of different tasks exclude each other,
    and reentrant=True lets a task take again a lock it holds. The blocking calls run on two threads of the
    session's own (see the module's docstring), never on the event loop; the loss is watched on the loop."""

    def __init__(self, native: _advlock.Session, loop: asyncio.AbstractEventLoop, calls: _lane.Lane) -> None:
        self._native = native
        self._loop = loop
        self._calls = calls
        self._waits = _lane.Lane(f"advlock-aio-waits-{native.server_id}")
        self._lost: "asyncio.Future[None]" = loop.create_future()
        # Retrieved here, so that a loss nobody awaited is not reported as "exception never retrieved".
        self._lost.add_done_callback(lambda future: future.cancelled() or future.exception())
        self._on_lost: Optional[Callable[[str], None]] = None
        self._loss_told = False
        self._lost.add_done_callback(self._call_on_lost)  # run by the loop, call_soon
        self._fd = native.loss_fd()
        loop.add_reader(self._fd, self._loss_fd_ready)

    # -- calls ---------------------------------------------------------------------------------------------

    async def _call(self, blocking: Callable[[], Any]) -> Any:
        return await _lane.call(self._calls, blocking)

    async def try_lock(self, key: KeyLike, *, shared: bool = False, reentrant: bool = False,
                       slots: Optional[int] = None, fence: bool = False) -> Optional[Lock]:
        """Take the lock without waiting: a Lock, or None when another session or another task's Lock holds
        it. Options as advlock.Session.try_lock."""
        owner_id = _current_owner_id()
        lock = await self._call(lambda: self._native.try_lock(key, shared=shared, reentrant=reentrant, slots=slots,
                                                              fence=fence, owner_id=owner_id))
        return None if lock is None else Lock(lock, self)

    def lock(self, key: KeyLike, *, timeout: Optional[float] = None, shared: bool = False, reentrant: bool = False,
             slots: Optional[int] = None, fence: bool = False) -> PendingLock[Lock]:
        """Take the lock, waiting up to timeout seconds (None: as long as it takes), counted from this call:
        the time queued behind the session's other waits counts. ``lock = await session.lock(...)`` or
        ``async with session.lock(...) as lock:``. Raises NotAcquired when the time runs out, and otherwise as
        advlock.Session.lock. Cancelling the task (also asyncio.wait_for / asyncio.timeout running out) ends
        the wait on the server, waits for it to end, releases a lock granted in the race, then raises
        CancelledError: no lock is left behind."""
        owner_id = _current_owner_id()

        def attempt(left: Optional[float], cancel: Optional[_advlock.CancelToken]) -> _advlock.Lock:
            return self._native.lock(key, timeout=left, shared=shared, reentrant=reentrant, slots=slots,
                                     fence=fence, owner_id=owner_id, cancel=cancel)

        return self._pending(timeout, attempt, Lock)

    async def try_lock_all(self, keys: Iterable[KeyLike], *, shared: bool = False,
                           reentrant: bool = False) -> Optional[LockSet]:
        """Take a set of locks without waiting, all or nothing: a LockSet holding every one, or None with none
        held when any is held by another session or another task's Lock. Keys and options as
        advlock.Session.try_lock_all."""
        owner_id = _current_owner_id()
        locks = await self._call(lambda: self._native.try_lock_all(keys, shared=shared, reentrant=reentrant,
                                                                   owner_id=owner_id))
        return None if locks is None else LockSet(locks, self)

    def lock_all(self, keys: Iterable[KeyLike], *, timeout: Optional[float] = None, shared: bool = False,
                 reentrant: bool = False) -> PendingLock[LockSet]:
        """Take a set of locks, all or nothing, waiting up to timeout seconds (None: as long as it takes) until
        every one is free at once, as advlock.Session.lock_all (the same order, so overlapping sets never
        deadlock). ``locks = await session.lock_all(...)`` or ``async with session.lock_all(...) as locks:``.
        Raises NotAcquired, with none held, when the time runs out; cancelling the task leaves none held, as
        lock() does."""
        owner_id = _current_owner_id()

        def attempt(left: Optional[float], cancel: Optional[_advlock.CancelToken]) -> _advlock.LockSet:
            return self._native.lock_all(keys, timeout=left, shared=shared, reentrant=reentrant, owner_id=owner_id,
                                         cancel=cancel)

        return self._pending(timeout, attempt, LockSet)

    def _pending(self, timeout: Optional[float], attempt: Callable[[Optional[float], Optional[_advlock.CancelToken]], Any],
                 wrap: Callable[[Any, "Session"], _HeldT]) -> PendingLock[_HeldT]:
        """lock() and lock_all(): attempt(timeout_left, cancel_token) is the synchronous call, wrap its result."""
        timeout_ms = _advlock.timeout_ms(timeout)  # InvalidArgument now, for a bad timeout
        deadline = None if timeout is None else time.monotonic() + float(timeout)

        async def acquire() -> _HeldT:
            if timeout_ms == 0:
                return wrap(await self._call(lambda: attempt(0, None)), self)
            return wrap(await self._acquire_waiting(deadline, attempt), self)

        return PendingLock(acquire)

    async def _acquire_waiting(self, deadline: Optional[float],
                               attempt: Callable[[Optional[float], Optional[_advlock.CancelToken]], Any]) -> Any:
        token = _advlock.CancelToken()
        abandoned = threading.Event()

        def wait() -> Any:
            # What is left of the timeout once this wait's turn came (at least a millisecond: a wait, not a try).
            left = None if deadline is None else max(deadline - time.monotonic(), 0.001)
            held = attempt(left, token)
            if abandoned.is_set():  # granted as the task was cancelled: release before the next wait's turn
                try:
                    held.release()
                except Exception:
                    pass  # lost or closed: nothing is held either way
                return None
            return held

        def cancel() -> None:
            abandoned.set()
            # Off the loop: ending a wait on the server sends a cancel request, a connection of its own. Not
            # on a lane: the calls lane may be queued behind this very wait.
            self._loop.run_in_executor(None, token.cancel)

        held = await _lane.call(self._waits, wait, on_cancel=cancel)
        assert held is not None  # None only once abandoned, and then call() raised CancelledError
        return held

    async def verify(self) -> None:
        """One round trip proving this is still the session that took its locks."""
        await self._call(self._native.verify)

    async def holders(self, key: Optional[KeyLike] = None) -> Holders:
        """Who holds or waits for advisory locks (only key's when given), as advlock.Session.holders."""
        result: Holders = await self._call(lambda: self._native.holders(key))
        return result

    def check(self) -> None:
        """No round trip: raises LockLost once the session's locks are known lost."""
        self._native.check()

    # -- loss ----------------------------------------------------------------------------------------------

    def _loss_fd_ready(self) -> None:
        """On the loop: the loss fd turned readable (lost, or closed behind our back); it stays so."""
        self._loop.remove_reader(self._fd)
        try:
            self._native.check()
        except LockLost as lost:
            if not self._lost.done():
                self._lost.set_exception(lost)
            return
        except Misuse as closed:
            if not self._lost.done():
                self._lost.set_exception(closed)
            return

    @property
    def loss(self) -> "asyncio.Future[None]":
        """A future of the loop that fails with LockLost (saying why) once the session's locks are lost, with
        Misuse once the session is closed first; it never succeeds. For await, add_done_callback,
        asyncio.wait(..., return_when=FIRST_COMPLETED) beside the job's own work."""
        return self._lost

    async def wait_lost(self) -> None:
        """Wait until the locks are lost: raises LockLost (saying why) then, Misuse once the session is closed.
        Cancelling the waiting task cancels only this wait. No thread: the loop watches Session.loss_fd()."""
        await asyncio.shield(self._lost)

    def on_lost(self, callback: Optional[Callable[[str], None]]) -> None:
        """Call callback(why) once, on the event loop (call_soon), when the locks are lost (None removes it;
        it replaces the previous one). Already lost: it is called soon."""
        self._on_lost = callback
        if callback is not None and self._loss_told:  # lost before: this callback is told too
            self._loop.call_soon(self._tell, callback)

    def _call_on_lost(self, future: "asyncio.Future[None]") -> None:
        if isinstance(None if future.cancelled() else future.exception(), LockLost):
            self._loss_told = True
            if self._on_lost is not None:
                self._tell(self._on_lost)

    def _tell(self, callback: Callable[[str], None]) -> None:
        callback(str(self._lost.exception()))

    @property
    def lost(self) -> bool:
        """True once the session's locks are known lost (or it is closed); no round trip."""
        return self._native.lost

    # -- the rest --------------------------------------------------------------------------------------------

    @property
    def server_id(self) -> int:
        return self._native.server_id

    @property
    def registry(self) -> Optional[Registry]:
        return self._native.registry

    @property
    def closed(self) -> bool:
        return self._native.closed

    async def close(self) -> None:
        """Close the connection, releasing every lock; waits in progress end (Misuse), and so do the queued
        ones. Twice is fine. On a thread of its own (the default executor): a close must not queue behind the
        waits it ends."""
        self._loop.remove_reader(self._fd)
        await self._loop.run_in_executor(None, self._native.close)
        if not self._lost.done():
            self._lost.set_exception(Misuse("the advlock session is closed"))
        self._calls.stop()
        self._waits.stop()

    async def __aenter__(self) -> "Session":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"<advlock.aio.Session server_id={self.server_id}{' closed' if self.closed else ''}>"
