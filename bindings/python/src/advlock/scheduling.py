"""@advlock.skip_if_running: a scheduled function that runs on at most one
host at a time and is skipped (not queued) while another run holds its lock."""
from __future__ import annotations

import functools
import logging
from typing import Any, Callable, Optional, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

log = logging.getLogger("advlock")


def skip_if_running(key: Any, *, url: str = "", on_skip: Optional[Callable[[], Any]] = None,
                    **connect_options: Any) -> Callable[[F], F]:
    """Run the decorated function only when its lock is free.

        @advlock.skip_if_running("daily_sales", url=DATABASE_URL)
        def daily_sales(): ...

    Each call opens a session (advlock.connect(url, **connect_options)), tries
    the lock without waiting, runs the function while holding it and releases
    it. When another session holds the lock the function does not run: the
    call logs who holds it (logger "advlock", level INFO) and returns
    on_skip() if given, else None. If the lock is lost while the function
    runs, LockLost is raised when it returns: its work may have overlapped
    another run. A function that must stop at once on a loss takes its lock
    itself instead (Session.try_lock, then Lock.ensure_held() in its loops).
    """
    from . import connect

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def run(*args: Any, **kwargs: Any) -> Any:
            with connect(url, **connect_options) as session:
                lock = session.try_lock(key)
                if lock is None:
                    holders = [h for h in session.holders(key) if h.granted]
                    who = ", ".join(f"pid {h.pid} ({h.application_name or 'unknown application'})"
                                    for h in holders) or "another session"
                    log.info("skipped %s: lock %s is held by %s", function.__qualname__, key, who)
                    return on_skip() if on_skip is not None else None
                with lock:
                    return function(*args, **kwargs)

        return cast(F, run)

    return decorate
