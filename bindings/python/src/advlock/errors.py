"""The exceptions advlock raises: one class per outcome a caller may need to
tell apart, all under :class:`advlock.Error`.

Each carries ``status`` (the C ABI's status code), ``status_name``
(``"ADVLOCK_ELOST"``) and ``sqlstate`` (the server's five-character code, or
``""``). Catch the class, never parse the message.

Which status each class stands for comes from the library's status table
(``STATUS_TABLE``, read at import), by class name (its Kind column): no status
number is written here, so the two cannot drift apart.
"""
from __future__ import annotations

from typing import Dict, NamedTuple, Tuple, Type

from . import _advlock


class StatusInfo(NamedTuple):
    """One row of the library's status table (advlock/status_table.h)."""

    status: int
    name: str        # "ADVLOCK_ELOST"
    kind: str        # "lock_lost"
    class_name: str  # "LockLost": the class of this module that stands for it
    parent: str      # "error", "unsafe_target", "lock_lost" (a kind of loss), or "none" (OK, NOT_ACQUIRED)
    summary: str


#: Every status the library returns, in its table's order.
STATUS_TABLE: Tuple[StatusInfo, ...] = tuple(StatusInfo(*row) for row in _advlock.status_table())


class Error(Exception):
    """Base of every advlock error."""

    #: The C ABI status this class stands for (set from STATUS_TABLE below;
    #: Error and UnsafeTarget, which no status names, have ADVLOCK_ERROR's).
    default_status: int

    def __init__(self, message: str, status: "int | None" = None, sqlstate: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.status = self.default_status if status is None else status
        self.sqlstate = sqlstate

    @property
    def status_name(self) -> str:
        return _advlock.status_name(self.status)


class NotAcquired(Error):
    """The lock is held by another session and the wait (if any) ran out."""


class InternalError(Error):
    """A bug in advlock; please report it."""


class OutOfMemory(Error, MemoryError):
    """Memory could not be allocated."""


class InvalidArgument(Error, ValueError):
    """A bad argument: an unknown option value, a negative timeout..."""


class BadKey(Error, ValueError):
    """A malformed key text, or a name that is empty, too long or not UTF-8."""


class RegistryError(Error):
    """A registry file is invalid; the message starts with file:line."""


class NotFound(Error, LookupError):
    """No registry entry with that name or key (the message suggests the closest)."""


class FileError(Error, OSError):
    """A file could not be read."""


class Misuse(Error):
    """The API was used out of order: release twice, use after close."""


class ConnectError(Error):
    """The database could not be reached, or the connection failed."""


class UnsafeTarget(Error):
    """The server is one where locks would exclude no one; refused unless opted in."""


class StandbyTarget(UnsafeTarget):
    """A hot standby (opt in with allow_standby=True)."""


class ReadOnlyTarget(UnsafeTarget):
    """A read-only server or session (opt in with allow_standby=True)."""


class PoolerTarget(UnsafeTarget):
    """A connection pooler between client and server (opt in with allow_pooler=True)."""


class ClusterTarget(UnsafeTarget):
    """A node of a multi-primary cluster (MySQL Galera), where a lock excludes only sessions on that node
    (opt in with allow_cluster=true in the URL)."""


class UnsafeLockDirectory(UnsafeTarget):
    """The host-local lock directory, or a lock file in it, is one another user could replace or redirect
    (owner, mode, a symbolic link, not a regular file); the message says what to change."""


class LockLost(Error):
    """The lock was lost: the job must stop acting as its holder."""


class FencedOut(LockLost):
    """A newer holder took the lock: the fencing token was superseded (advlock.fence_check, SQLSTATE 55T01).
    Roll the job's transaction back; its work would overlap the new holder's."""


class Canceled(Error):
    """A wait was cancelled: by Session.cancel() or closing the session; for a transaction lock
    (xact_lock), by a cancel request or statement_timeout on the server (SQLSTATE 57014)."""


class CapacityError(Error):
    """The server's lock table is full (SQLSTATE 53200)."""


class Deadlock(Error):
    """The server found a deadlock (SQLSTATE 40P01)."""


class PermissionDenied(Error):
    """The role may not call the advisory-lock functions (SQLSTATE 42501)."""


class ServerError(Error):
    """Any other server error; see ``sqlstate``."""


class Unsupported(Error):
    """The backend, server or driver cannot do what was asked."""


class ConfigError(Error):
    """A configuration file is invalid; the message starts with file:line."""


def _by_status() -> Dict[int, Type[Error]]:
    """Each row's class, found by its class name, takes the row's status."""
    by_status: Dict[int, Type[Error]] = {}
    for row in STATUS_TABLE:
        cls = globals().get(row.class_name)
        if not (isinstance(cls, type) and issubclass(cls, Error)):
            continue  # ADVLOCK_OK: success raises nothing (tests/test_package.py checks the rest)
        cls.default_status = row.status
        by_status[row.status] = cls
    return by_status


_BY_STATUS = _by_status()
Error.default_status = InternalError.default_status


def class_for_status(status: int) -> Type[Error]:
    """The exception class of a C ABI status code (Error for unknown ones)."""
    return _BY_STATUS.get(status, Error)
