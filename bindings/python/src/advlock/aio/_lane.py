"""A lane: one daemon thread running blocking advlock calls in order, for an
asyncio session, so that the event loop never waits on the network and many
tasks cost one thread, not one each.

A daemon thread, not a concurrent.futures executor: the executor's threads
are joined at interpreter exit before atexit hooks run, so one blocked in a
lock wait forever would hang the exit; advlock's own atexit hook closes the
open sessions, which ends such a wait.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import queue
import threading
from typing import Any, Callable, Optional, Tuple, TypeVar

T = TypeVar("T")
_Job = Optional[Tuple["concurrent.futures.Future[Any]", Callable[[], Any]]]


class Lane:
    def __init__(self, name: str) -> None:
        self._name = name
        self._jobs: "queue.SimpleQueue[_Job]" = queue.SimpleQueue()
        self._thread: Optional[threading.Thread] = None
        self._stopped = False

    def submit(self, call: Callable[[], T]) -> "concurrent.futures.Future[T]":
        """Queue call; its future can be cancelled until the lane starts it."""
        future: "concurrent.futures.Future[T]" = concurrent.futures.Future()
        if self._stopped:  # its session is closed: every call fails at once (Misuse), without a round trip
            future.set_running_or_notify_cancel()
            try:
                future.set_result(call())
            except BaseException as error:
                future.set_exception(error)
            return future
        if self._thread is None:  # started at the first call: an unused lane costs no thread
            self._thread = threading.Thread(target=self._work, name=self._name, daemon=True)
            self._thread.start()
        self._jobs.put((future, call))
        return future

    def stop(self) -> None:
        """The thread ends after the calls queued before; later calls run at once, on the caller's thread
        (stop only once the session is closed, when every call fails at once)."""
        self._stopped = True
        if self._thread is not None:
            self._jobs.put(None)

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            future, call = job
            if not future.set_running_or_notify_cancel():
                continue  # its caller was cancelled before it started
            try:
                future.set_result(call())
            except BaseException as error:
                future.set_exception(error)
            del job, future, call  # no reference to a result (a Lock) beyond its caller's


async def call(lane: Lane, blocking: Callable[[], T], on_cancel: Optional[Callable[[], None]] = None) -> T:
    """Run blocking on lane and await its outcome. When the awaiting task is cancelled: a call not started yet
    never runs; a started one is told (on_cancel, e.g. cancelling its wait's token) and waited for, its result
    dropped (a Lock granted in the race is freed, which releases it without blocking), then CancelledError."""
    future = lane.submit(blocking)
    try:
        return await asyncio.wrap_future(future)
    except asyncio.CancelledError:
        if future.cancel():
            raise  # still queued: it will not run
        if on_cancel is not None:
            on_cancel()
        await run_to_end(future)  # its result unbound: a Lock granted in the race is freed with it
        del future  # (the CancelledError's traceback keeps this frame: not its result)
        raise


async def run_to_end(future: "concurrent.futures.Future[T]") -> Tuple[Optional[T], Optional[BaseException], bool]:
    """Wait for a started call to return, whatever cancellations come meanwhile: a call into advlock is never
    abandoned. Returns (result, its exception, whether the waiting task was cancelled meanwhile)."""
    waiting = asyncio.wrap_future(future)
    cancelled = False
    while True:
        try:
            return await asyncio.shield(waiting), None, cancelled
        except asyncio.CancelledError:
            cancelled = True  # shield: `waiting` goes on
        except BaseException as error:  # the call's own outcome (an advlock error)
            return None, error, cancelled
