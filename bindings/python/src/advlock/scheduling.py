"""@advlock.skip_if_running: a scheduled function that runs on at most one
host at a time and is skipped (not queued) while another run holds its lock."""
from __future__ import annotations

import functools
import logging
import sys
from typing import Any, Callable, Optional, TypeVar, cast

from .errors import InvalidArgument

F = TypeVar("F", bound=Callable[..., Any])

log = logging.getLogger("advlock")


class _Skipped:
    """The type of SKIPPED: one falsy value, never equal to anything a job returns."""

    _instance: "Optional[_Skipped]" = None

    def __new__(cls) -> "_Skipped":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "advlock.SKIPPED"

    def __reduce__(self) -> str:
        return "SKIPPED"


#: What a @skip_if_running function returns when it was skipped (and no
#: on_skip was given): test it with ``is advlock.SKIPPED``. It is falsy.
SKIPPED = _Skipped()

#: The exit code the advlock command uses when the lock is held elsewhere
#: (advlock run --conflict-exit-code, default 3); pass it as exit_code=.
CONFLICT_EXIT_CODE = 3


def skip_if_running(key: Any, *, url: str = "", on_skip: Optional[Callable[[], Any]] = None,
                    exit_code: Optional[int] = None, slots: Optional[int] = None,
                    **connect_options: Any) -> Callable[[F], F]:
    """Run the decorated function only when its lock is free.

        @advlock.skip_if_running("daily_sales", url=DATABASE_URL, exit_code=3)
        def daily_sales(): ...

    Each call opens a session (advlock.connect(url, **connect_options)), tries
    the lock without waiting, runs the function while holding it and releases
    it. When another session holds the lock the function does not run: the
    call logs who holds it (logger "advlock", level INFO), calls on_skip() if
    given, and then
      - with exit_code=N, exits the program with status N (sys.exit(N)), so a
        cron line or a wrapper script sees the skip as `advlock run` reports
        it (exit_code=advlock.CONFLICT_EXIT_CODE, 3);
      - otherwise returns on_skip()'s value, or advlock.SKIPPED (falsy; test
        it with `is advlock.SKIPPED`) when no on_skip was given.
    With slots=N, up to N calls run at once (on any host), each holding one
    free slot of N (Session.try_lock's slots); a call is skipped when all N
    are held.
    If the lock is lost while the function runs, LockLost is raised when it
    returns: its work may have overlapped another run. A function that must
    stop at once on a loss takes its lock itself instead (Session.try_lock,
    then Lock.ensure_held() in its loops).
    """
    from . import _advlock, connect

    if exit_code is not None and (isinstance(exit_code, bool) or not isinstance(exit_code, int)
                                  or not 0 <= exit_code <= 255):
        raise InvalidArgument(f"skip_if_running: exit_code must be an int from 0 to 255 (3 is what advlock run "
                              f"uses for a lock held elsewhere), got {exit_code!r}")

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def run(*args: Any, **kwargs: Any) -> Any:
            with connect(url, **connect_options) as session:
                lock = session.try_lock(key, slots=slots)
                if lock is None:
                    label = _advlock.key_label(key, session.registry)
                    if slots is not None and slots > 1:
                        log.info("skipped %s: all %d slots of lock %s are held", function.__qualname__, slots, label)
                    else:
                        holders = [h for h in session.holders(key) if h.granted]
                        who = ", ".join(f"pid {h.server_id} ({h.application_name or 'unknown application'})"
                                        for h in holders) or "another session"
                        log.info("skipped %s: lock %s is held by %s", function.__qualname__, label, who)
                    skipped = on_skip() if on_skip is not None else SKIPPED
                    if exit_code is not None:
                        sys.exit(exit_code)
                    return skipped
                with lock:
                    return function(*args, **kwargs)

        return cast(F, run)

    return decorate
