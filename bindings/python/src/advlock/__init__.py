"""advlock: stop batch jobs from running twice at once, across hosts, with
PostgreSQL advisory locks held on a dedicated connection.

    import advlock

    with advlock.connect(url, application_name="nightly") as session:
        lock = session.try_lock("daily_sales")          # None when held elsewhere
        with session.lock(advlock.Key(100, 1), timeout=30):   # raises advlock.NotAcquired
            ...
            lock.ensure_held()                          # raises advlock.LockLost, no round trip
        export = session.try_lock("export", slots=3)    # any one free slot of 3: at most 3 at once
        fenced = session.lock("ledger", fence=True)     # a fencing token, for advlock.fence_check(conn, fenced)

Each Lock is its own owner, as with threading.Lock: threads sharing a session
exclude each other. reentrant=True (try_lock/lock) lets a thread take again a
lock it holds, as threading.RLock.

For asyncio, advlock.aio has the same API awaited (`import advlock.aio`):
await advlock.aio.connect(url), `async with session.lock(key, timeout=30):`,
cancellation that leaves no lock, the loss delivered on the event loop.

Everything that decides about locks happens in the advlock C library (the
same one the `advlock` command and the Java and Ruby bindings use); this
package only adapts it to Python.
"""
from __future__ import annotations

import os
from importlib.metadata import version as _distribution_version
from typing import Callable, Optional, Union

from . import _advlock
from ._advlock import (SLOTS_MAX, Holder, Holders, Key, Lock, LockSet, Registry, RegistryEntry, Session,
                       fence_check_sql, name_key_sql, sql)
from .errors import (BadKey, Canceled, CapacityError, ClusterTarget, ConfigError, ConnectError, Deadlock, Error,
                     FencedOut, FileError, InternalError, InvalidArgument, LockLost, Misuse, NotAcquired, NotFound,
                     OutOfMemory, PermissionDenied, PoolerTarget, ReadOnlyTarget, RegistryError, ServerError,
                     StandbyTarget, UnsafeLockDirectory, Unsupported, UnsafeTarget)
from .fence import fence_check, fence_sql
from .scheduling import CONFLICT_EXIT_CODE, SKIPPED, skip_if_running
from .xact import try_xact_lock, xact_lock

# The installed distribution's version, which the build read from
# capi/include/advlock/version.h (pyproject.toml): never written here.
__version__ = _distribution_version("advlock")

KeyLike = Union[Key, str, int, "tuple[int, int]"]


def version() -> str:
    """The version of the advlock C library this package runs on."""
    return _advlock.version()


def connect(url: str = "", *, application_name: Optional[str] = None, allow_standby: bool = False,
            allow_pooler: bool = False, heartbeat_interval: Optional[float] = None,
            heartbeat_deadline: Optional[float] = None, stop_grace: Optional[float] = None,
            registry: "Union[Registry, str, os.PathLike[str], None]" = None,
            on_lost: Optional[Callable[[str], None]] = None) -> Session:
    """Open a lock session: one dedicated connection, never pooled.

    url: a postgresql:// URL or libpq conninfo ("" takes the PG* environment
    variables, .pgpass and service files as libpq does); "local" or
    "local:/dir" (optionally "?group=NAME") for host-local locks (flock), in a
    directory only root, you or that group can change (else
    UnsafeLockDirectory); mysql://user:password@host/db
    (or mariadb://) for GET_LOCK locks, which lock names as they are
    (?scope=PREFIX prefixes them; no shared mode). registry: a Registry or the
    path of a registry file; names given to try_lock()/lock() are then looked
    up in it. on_lost(why) is called once, from advlock's watchdog thread,
    when the session's locks are lost. heartbeat_*: seconds (defaults 2 + 3).
    stop_grace: seconds the job may still work under the lock after its loss
    is reported (default 10); the server frees a silent client's locks only
    after heartbeat_interval + heartbeat_deadline + stop_grace + 3 s.

    Raises ConnectError, StandbyTarget / ReadOnlyTarget / PoolerTarget /
    ClusterTarget (all UnsafeTarget) unless allowed, UnsafeLockDirectory, InvalidArgument,
    RegistryError.
    """
    if registry is not None and not isinstance(registry, Registry):
        registry = Registry.open(os.fspath(registry))
    session = Session(url, application_name=application_name, allow_standby=allow_standby,
                      allow_pooler=allow_pooler, heartbeat_interval=heartbeat_interval,
                      heartbeat_deadline=heartbeat_deadline, stop_grace=stop_grace,
                      registry=registry)
    if on_lost is not None:
        session.on_lost(on_lost)
    return session


__all__ = [
    "connect", "version", "skip_if_running", "SKIPPED", "CONFLICT_EXIT_CODE", "try_xact_lock", "xact_lock", "name_key_sql", "sql",
    "fence_check", "fence_check_sql", "fence_sql", "SLOTS_MAX",
    "Session", "Lock", "LockSet", "Key", "KeyLike", "Registry", "RegistryEntry", "Holder", "Holders",
    "Error", "NotAcquired", "LockLost", "FencedOut", "UnsafeTarget", "StandbyTarget", "ReadOnlyTarget", "PoolerTarget",
    "ClusterTarget", "UnsafeLockDirectory", "ConnectError", "CapacityError", "Deadlock", "PermissionDenied", "ServerError", "Unsupported",
    "Canceled", "Misuse", "InvalidArgument", "BadKey", "RegistryError", "NotFound", "FileError", "ConfigError",
    "InternalError", "OutOfMemory",
]
