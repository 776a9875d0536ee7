"""What try_xact_lock() and xact_lock() do, without doing any I/O ("sans-IO"):
each operation is a generator that yields the steps to perform on the
caller's connection (a statement to run, or "sync the pipeline") and is sent
each step's answer, or thrown the driver's error (or the KeyboardInterrupt /
CancelledError that interrupted it).

advlock.xact drives these with a synchronous psycopg / psycopg2 connection,
advlock.aio with a psycopg.AsyncConnection: the checks, the order of the
timed wait's steps and what every answer or error means are written once,
here; the runners only perform steps. The SQL text, the timed wait's steps
and what a server error means come from the advlock core (advlock_sql,
advlock_sql_result, advlock_xact_wait_sql, advlock_status_from_sqlstate).
"""
from __future__ import annotations

from typing import Any, Awaitable, Callable, Coroutine, Generator, NamedTuple, Optional, Type, TypeVar, Union

from . import _advlock
from .errors import Error, Misuse, NotAcquired, class_for_status

# libpq's PGTransactionStatusType, which both drivers report, and PGpipelineStatus's "off".
_IDLE, _ACTIVE, _INTRANS, _INERROR = 0, 1, 2, 3
_PIPELINE_OFF = 0


class Run(NamedTuple):
    """Run statement through the caller's cursor; with row, answer the first column of its one row
    (None without a row). Fetching is what makes psycopg's pipeline mode send it and report its errors now."""

    statement: str
    row: bool = False


class SyncPipeline(NamedTuple):
    """In psycopg's pipeline mode, send what is queued and wait for the server's answer: only then is the
    transaction status current (libpq learns it at a sync), and after an error the pipeline drops every
    statement until one. Outside pipeline mode (and with psycopg2, which has none) nothing to do."""


Step = Union[Run, SyncPipeline]
Steps = Generator[Step, Any, Any]
T = TypeVar("T")


async def drive(steps: Steps, perform: Callable[[Step], Awaitable[Any]]) -> Any:
    """The runner, written once for both: perform each step the operation yields, send it the answer or
    throw it the failure (KeyboardInterrupt and CancelledError too: the operation rolls its wait back, then
    raises them again); the operation's value is the result. advlock.xact passes a perform that never
    suspends and runs this with run_now; advlock.aio awaits it."""
    answer: Any = None
    failure: Optional[BaseException] = None
    while True:
        try:
            step = steps.send(answer) if failure is None else steps.throw(failure)
        except StopIteration as done:
            return done.value
        finally:
            failure = None  # no reference cycle through the traceback
        try:
            answer = await perform(step)
        except BaseException as error:
            answer, failure = None, error


def run_now(coroutine: "Coroutine[Any, Any, T]") -> T:
    """The value of a coroutine that never suspends (every await in it is on a synchronous call)."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        value: T = done.value
        return value
    coroutine.close()
    raise RuntimeError("advlock: a synchronous step suspended")


def in_pipeline(conn: Any) -> bool:
    """Whether conn (psycopg 3, sync or async) is in pipeline mode; psycopg2 has no pipeline mode."""
    status = getattr(getattr(conn, "pgconn", None), "pipeline_status", _PIPELINE_OFF)
    return int(status or _PIPELINE_OFF) != _PIPELINE_OFF


def check_driver_connection(conn: Any, doing: str) -> None:
    """Refuse an object that is no psycopg or psycopg2 connection."""
    if not hasattr(conn, "cursor") or not hasattr(conn, "info") or not hasattr(conn, "autocommit"):
        raise TypeError(f"advlock.{doing} takes a psycopg or psycopg2 connection, got {type(conn).__name__}")


def _check_state(conn: Any, doing: str) -> Steps:
    """Refuse, with the reason, a connection the lock cannot join a transaction of."""
    if conn.closed:
        raise Misuse(f"advlock.{doing}: the driver connection is closed")
    yield SyncPipeline()
    status = int(conn.info.transaction_status)
    if status == _INERROR:
        raise Misuse(f"advlock.{doing}: the connection's transaction has already failed; roll it back first")
    if status == _ACTIVE:
        raise Misuse(f"advlock.{doing}: the connection is busy with another statement")
    if status == _IDLE and conn.autocommit:
        raise Misuse(f"advlock.{doing}: a transaction-scoped lock needs a transaction: the connection is in "
                     "autocommit mode, so the lock would end with its own statement (use `with "
                     "conn.transaction():` (psycopg; `async with` for an AsyncConnection) or autocommit=False)")


def _sqlstate(error: BaseException) -> Optional[str]:
    """The server's SQLSTATE of a driver error (psycopg: .sqlstate, psycopg2: .pgcode)."""
    return getattr(error, "sqlstate", None) or getattr(error, "pgcode", None)


def _is_driver_error(error: BaseException) -> bool:
    return isinstance(error, Exception) and (hasattr(error, "sqlstate") or hasattr(error, "pgcode"))


def _error_class(error: BaseException) -> Type[Error]:
    """What the driver's error means, as the core maps a SQLSTATE for its own
    sessions, as the class every other advlock error of that status has."""
    return class_for_status(_advlock.status_from_sqlstate(_sqlstate(error)))


def _as_advlock_error(error: BaseException, doing: str, label: str) -> Error:
    sqlstate = _sqlstate(error) or ""
    cls = _error_class(error)
    first_line = (str(error).strip().splitlines() or [type(error).__name__])[0]
    return cls(f"{doing} {label}: {first_line}", sqlstate=sqlstate)


def _try(key: _advlock.Key, shared: bool, doing: str, label: str) -> Steps:
    try:
        answer = yield Run(_advlock.sql("try_xact_lock", key, shared), row=True)
    except Exception as error:
        if not _is_driver_error(error):
            raise
        raise _as_advlock_error(error, doing, label) from error
    return _advlock.sql_result("try_xact_lock", key, bool(answer))


def _wait(key: _advlock.Key, shared: bool, timeout_ms: int, doing: str, label: str) -> Steps:
    """The core's timed wait (advlock_xact_wait_sql), its steps in its order:
    inside a savepoint, lock_timeout set for the wait only. On any failure,
    rolling back to the savepoint drops a lock granted in a race and the
    changed setting, and leaves the caller's transaction usable."""
    def step(name: str, saved: str = "") -> str:
        return _advlock.xact_wait_sql(name, key, shared, timeout_ms, saved)

    try:
        yield Run(step("savepoint"))
    except Exception as error:
        if not _is_driver_error(error):
            raise
        raise _as_advlock_error(error, doing, label) from error
    try:
        saved = yield Run(step("set_timeout"), row=True)
        yield Run(step("lock"), row=True)
        # Put the caller's lock_timeout back before the savepoint's changes join the transaction.
        yield Run(step("restore_timeout", "" if saved is None else str(saved)), row=True)
        yield Run(step("release"))
        return True
    except BaseException as failure:  # KeyboardInterrupt, CancelledError too: the driver cancelled the statement
        try:
            yield SyncPipeline()
            yield Run(step("rollback"))
            yield Run(step("release"))
        except Exception:
            pass  # the connection is gone: the failure says why, the server drops the transaction
        if not _is_driver_error(failure):
            raise
        if _error_class(failure) is NotAcquired:  # the wait's lock_timeout ran out
            return False
        raise _as_advlock_error(failure, doing, label) from failure


def try_xact_lock(conn: Any, key: Any, shared: bool, registry: Optional[_advlock.Registry]) -> Steps:
    """advlock.try_xact_lock's steps; the generator's value is its answer."""
    k = _advlock.to_key(key, registry)
    yield from _check_state(conn, "try_xact_lock")
    return (yield from _try(k, shared, "try_xact_lock", _advlock.key_label(key, registry)))


def xact_lock(conn: Any, key: Any, timeout: Optional[float], shared: bool,
              registry: Optional[_advlock.Registry]) -> Steps:
    """advlock.xact_lock's steps: raises NotAcquired at the end of a wait that ran out."""
    k = _advlock.to_key(key, registry)
    label = _advlock.key_label(key, registry)
    timeout_ms = _advlock.timeout_ms(timeout)
    yield from _check_state(conn, "xact_lock")
    if timeout_ms == 0:
        acquired = yield from _try(k, shared, "xact_lock", label)
    else:
        acquired = yield from _wait(k, shared, timeout_ms, "xact_lock", label)
    if not acquired:
        raise NotAcquired(f"lock {label} is held by another session; "
                          + ("timeout=0: no wait" if timeout_ms == 0 else f"gave up after {timeout} s")
                          + " (the transaction is still usable)")
