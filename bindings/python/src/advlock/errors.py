"""The exceptions advlock raises: one class per outcome a caller may need to
tell apart, all under :class:`advlock.Error`.

Each carries ``status`` (the C ABI's status code), ``status_name``
(``"ADVLOCK_ELOST"``) and ``sqlstate`` (the server's five-character code, or
``""``). Catch the class, never parse the message.
"""
from __future__ import annotations

from typing import Dict, Type


class Error(Exception):
    """Base of every advlock error."""

    #: The C ABI status this class stands for (advlock.h).
    default_status: int = -1

    def __init__(self, message: str, status: "int | None" = None, sqlstate: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.status = self.default_status if status is None else status
        self.sqlstate = sqlstate

    @property
    def status_name(self) -> str:
        from . import _advlock

        return _advlock.status_name(self.status)


class NotAcquired(Error):
    """The lock is held by another session and the wait (if any) ran out."""

    default_status = 1


class InternalError(Error):
    """A bug in advlock; please report it."""

    default_status = -1


class OutOfMemory(Error, MemoryError):
    default_status = -2


class InvalidArgument(Error, ValueError):
    """A bad argument: an unknown option value, a negative timeout..."""

    default_status = -3


class BadKey(Error, ValueError):
    """A malformed key text, or a name that is empty, too long or not UTF-8."""

    default_status = -4


class RegistryError(Error):
    """A registry file is invalid; the message starts with file:line."""

    default_status = -5


class NotFound(Error, LookupError):
    """No registry entry with that name or key (the message suggests the closest)."""

    default_status = -6


class FileError(Error, OSError):
    """A file could not be read."""

    default_status = -7


class Misuse(Error):
    """The API was used out of order: release twice, use after close."""

    default_status = -8


class ConnectError(Error):
    """The database could not be reached, or the connection failed."""

    default_status = -9


class UnsafeTarget(Error):
    """The server is one where locks would exclude no one; refused unless opted in."""

    default_status = -10


class StandbyTarget(UnsafeTarget):
    """A hot standby (opt in with allow_standby=True)."""

    default_status = -10


class ReadOnlyTarget(UnsafeTarget):
    """A read-only server or session (opt in with allow_standby=True)."""

    default_status = -11


class PoolerTarget(UnsafeTarget):
    """A connection pooler between client and server (opt in with allow_pooler=True)."""

    default_status = -12


class ClusterTarget(UnsafeTarget):
    """A node of a multi-primary cluster (MySQL Galera), where a lock excludes only sessions on that node
    (opt in with allow_cluster=true in the URL)."""

    default_status = -21


class UnsafeLockDirectory(UnsafeTarget):
    """The host-local lock directory, or a lock file in it, is one another user could replace or redirect
    (owner, mode, a symbolic link, not a regular file); the message says what to change."""

    default_status = -22


class LockLost(Error):
    """The lock was lost: the job must stop acting as its holder."""

    default_status = -13


class Canceled(Error):
    """A wait was cancelled: by Session.cancel() or closing the session; for a transaction lock
    (xact_lock), by a cancel request or statement_timeout on the server (SQLSTATE 57014)."""

    default_status = -14


class CapacityError(Error):
    """The server's lock table is full (SQLSTATE 53200)."""

    default_status = -15


class Deadlock(Error):
    """The server found a deadlock (SQLSTATE 40P01)."""

    default_status = -16


class PermissionDenied(Error):
    """The role may not call the advisory-lock functions (SQLSTATE 42501)."""

    default_status = -17


class ServerError(Error):
    """Any other server error; see ``sqlstate``."""

    default_status = -18


class Unsupported(Error):
    """The backend, server or driver cannot do what was asked."""

    default_status = -19


class ConfigError(Error):
    """A configuration file is invalid; the message starts with file:line."""

    default_status = -20


_BY_STATUS: Dict[int, Type[Error]] = {
    cls.default_status: cls
    for cls in (NotAcquired, InternalError, OutOfMemory, InvalidArgument, BadKey, RegistryError, NotFound,
                FileError, Misuse, ConnectError, StandbyTarget, ReadOnlyTarget, PoolerTarget, ClusterTarget,
                UnsafeLockDirectory, LockLost,
                Canceled, CapacityError, Deadlock, PermissionDenied, ServerError, Unsupported, ConfigError)
}


def class_for_status(status: int) -> Type[Error]:
    """The exception class of a C ABI status code (Error for unknown ones)."""
    return _BY_STATUS.get(status, Error)
