"""advlock.aio against a real PostgreSQL: locks awaited by asyncio tasks,
cancellation that leaves nothing behind (checked in pg_locks from another
connection), loss delivered on the loop's thread, many waiting tasks on one
thread, and transaction-scoped locks on a psycopg.AsyncConnection.

Plain asyncio.run: no test plugin needed. The pauses below (asyncio.sleep,
small timeouts) only let a wait start or run out; nothing asserts on time.
"""
import asyncio
import contextlib
import threading

import psycopg
import pytest

import advlock
import advlock.aio

pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")


def key(n: int) -> advlock.Key:
    return advlock.Key(2203, n)


def waiting_pids(admin, k: advlock.Key):
    """Backend pids waiting (not granted) for k, straight from pg_locks."""
    classid, objid, objsubid = k.to_pg_locks()
    rows = admin.execute("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                         " AND classid = %s AND objid = %s AND objsubid = %s", (classid, objid, objsubid)).fetchall()
    return sorted(r[0] for r in rows)


def granted_pids(admin, k: advlock.Key):
    classid, objid, objsubid = k.to_pg_locks()
    rows = admin.execute("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
                         " AND classid = %s AND objid = %s AND objsubid = %s", (classid, objid, objsubid)).fetchall()
    return sorted(r[0] for r in rows)


async def until(predicate, what: str, limit: float = 30.0) -> None:
    """Poll (yielding to the loop) until predicate() holds; a hang becomes a readable failure."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"gave up waiting for {what} after {limit} s")
        await asyncio.sleep(0.01)


def test_try_lock_contention_between_two_async_sessions(pg_url, admin):
    async def main():
        async with await advlock.aio.connect(pg_url) as one, await advlock.aio.connect(pg_url) as two:
            first = await one.try_lock(key(1))
            assert first is not None and first.held
            assert granted_pids(admin, key(1)) == [one.server_id]
            assert await two.try_lock(key(1)) is None
            await first.release()
            assert not first.held
            async with await two.try_lock(key(1)) as second:
                assert granted_pids(admin, key(1)) == [two.server_id]
                assert await one.try_lock(key(1)) is None
            assert granted_pids(admin, key(1)) == []
            with pytest.raises(advlock.Misuse):
                await first.release()  # twice: as the synchronous API
            slot_one = await one.try_lock(key(14), slots=2)
            slot_two = await two.try_lock(key(14), slots=2)
            assert {slot_one.slot, slot_two.slot} == {1, 2}
            assert await two.try_lock(key(14), slots=2) is None  # the same options as advlock.Session

    asyncio.run(main())


def test_async_with_lock_timeout_not_acquired_when_held_elsewhere(pg_url, admin):
    async def main():
        async with await advlock.aio.connect(pg_url) as one, await advlock.aio.connect(pg_url) as two:
            held = await one.lock(key(2), timeout=1)
            with pytest.raises(advlock.NotAcquired):
                async with two.lock(key(2), timeout=0.1):
                    raise AssertionError("granted while held elsewhere")
            with pytest.raises(advlock.NotAcquired, match="timeout=0"):
                await two.lock(key(2), timeout=0)
            assert waiting_pids(admin, key(2)) == []  # the timed-out wait left nothing queued
            await held.release()
            async with two.lock(key(2), timeout=1, shared=True) as lock:
                assert lock.shared and granted_pids(admin, key(2)) == [two.server_id]

    asyncio.run(main())


@pytest.mark.parametrize("how", ["task.cancel", "wait_for", "timeout_context"])
def test_cancelled_wait_leaves_no_waiter_and_no_lock(pg_url, admin, how):
    if how == "timeout_context" and not hasattr(asyncio, "timeout"):
        pytest.skip("asyncio.timeout is Python 3.11+")
    k = key(3)

    async def main():
        async with await advlock.aio.connect(pg_url) as holder, await advlock.aio.connect(pg_url) as waiter:
            held = await holder.try_lock(k)

            async def wait_forever():
                await waiter.lock(k)

            async def wait_until_cancelled():
                if how == "task.cancel":
                    task = asyncio.ensure_future(wait_forever())
                    await until(lambda: waiting_pids(admin, k) == [waiter.server_id], "the wait on the server")
                    task.cancel()
                    await task
                elif how == "wait_for":
                    await asyncio.wait_for(wait_forever(), 0.3)
                else:
                    async with asyncio.timeout(0.3):
                        await wait_forever()

            with pytest.raises(asyncio.CancelledError if how == "task.cancel" else asyncio.TimeoutError):
                await wait_until_cancelled()
            assert waiting_pids(admin, k) == []  # the server-side wait was cancelled, not left behind
            assert granted_pids(admin, k) == [holder.server_id]
            assert [h.server_id for h in await waiter.holders(k)] == [holder.server_id]
            await held.release()
            # The cancelled session holds nothing and is usable: it gets the lock now.
            again = await waiter.lock(k, timeout=5)
            assert granted_pids(admin, k) == [waiter.server_id]
            await again.release()

    asyncio.run(main())


def test_loss_delivered_on_the_loop_thread(pg_url, admin):
    async def main():
        loop_thread = threading.get_ident()
        called = []
        session = await advlock.aio.connect(pg_url, heartbeat_interval=0.2, heartbeat_deadline=0.5,
                                            on_lost=lambda why: called.append((threading.get_ident(), why)))
        try:
            lock = await session.try_lock(key(4))
            assert not session.loss.done() and not session.lost
            assert admin.execute("SELECT pg_terminate_backend(%s)", (session.server_id,)).fetchone()[0]
            with pytest.raises(advlock.LockLost):
                await session.wait_lost()
            assert isinstance(session.loss.exception(), advlock.LockLost)
            await until(lambda: called, "the on_lost callback")
            assert len(called) == 1 and called[0][0] == loop_thread  # on the loop, not the watchdog's thread
            assert called[0][1] == str(session.loss.exception())
            later = []
            session.on_lost(later.append)  # set after the loss: told too, on the loop
            await until(lambda: later, "the callback set after the loss")
            assert later == [called[0][1]]
            assert session.lost and not lock.held
            with pytest.raises(advlock.LockLost):
                lock.ensure_held()
            with pytest.raises(advlock.LockLost):
                await lock.release()
        finally:
            await session.close()
        assert len(called) == 1

    asyncio.run(main())


def test_wait_lost_of_a_closed_session_is_misuse(pg_url):
    async def main():
        session = await advlock.aio.connect(pg_url)
        waiting = asyncio.ensure_future(session.wait_lost())
        await asyncio.sleep(0)
        await session.close()
        with pytest.raises(advlock.Misuse):
            await waiting
        await session.close()  # twice is fine
        with pytest.raises(advlock.Misuse):
            await session.try_lock(key(5))

    asyncio.run(main())


def test_many_tasks_waiting_on_one_session_cost_one_thread(pg_url, admin):
    k = key(6)
    tasks = 20

    async def main():
        async with await advlock.aio.connect(pg_url) as session:
            first = await session.try_lock(k)  # the session's thread for calls is running now
            threads = threading.active_count()
            order, most_threads = [], []

            async def worker(i):
                async with session.lock(k, timeout=60) as lock:
                    assert lock.held
                    order.append(i)
                    most_threads.append(threading.active_count())
                    await asyncio.sleep(0)

            running = [asyncio.ensure_future(worker(i)) for i in range(tasks)]
            await asyncio.sleep(0.1)  # the first wait has started on the waits thread, the rest queue
            assert not order  # none got it while the first Lock holds it (each Lock its own owner)
            most_threads.append(threading.active_count())
            await first.release()
            await asyncio.gather(*running)
            assert sorted(order) == list(range(tasks))
            assert max(most_threads) <= threads + 1  # the waits thread: not one per task
            assert granted_pids(admin, k) == []

    asyncio.run(main())


def test_each_task_is_an_owner(pg_url):
    async def main():
        async with await advlock.aio.connect(pg_url) as session:
            outer = await session.try_lock(key(7), reentrant=True)
            inner = await session.try_lock(key(7), reentrant=True)  # the same task: one owner
            assert outer is not None and inner is not None

            async def other_task():
                return await session.try_lock(key(7), reentrant=True)

            assert await asyncio.ensure_future(other_task()) is None  # another task: another owner
            with pytest.raises(advlock.Deadlock):
                await session.lock(key(7), timeout=5)  # this task would wait for its own Lock
            await inner.release()
            await outer.release()

    asyncio.run(main())


async def _aconn(pg_url, **options):
    return await psycopg.AsyncConnection.connect(pg_url, **options)


def test_xact_lock_on_async_connection_held_until_commit(pg_url, admin):
    k = key(8)
    other_try = advlock.sql("try_xact_lock", k)

    async def main():
        aconn = await _aconn(pg_url)
        try:
            async with aconn.transaction():
                assert await advlock.aio.try_xact_lock(aconn, k)
                assert admin.execute(other_try).fetchone()[0] is False
                await advlock.aio.xact_lock(aconn, key(9), timeout=5)
                assert granted_pids(admin, key(9)) == [aconn.info.backend_pid]
            assert admin.execute(other_try).fetchone()[0] is True  # ended with the commit
            assert granted_pids(admin, key(9)) == []
        finally:
            await aconn.close()

    asyncio.run(main())


def test_xact_lock_refused_in_autocommit_outside_a_transaction(pg_url):
    async def main():
        aconn = await _aconn(pg_url, autocommit=True)
        try:
            with pytest.raises(advlock.Misuse, match="autocommit"):
                await advlock.aio.try_xact_lock(aconn, key(10))
            with pytest.raises(advlock.Misuse, match="autocommit"):
                await advlock.aio.xact_lock(aconn, key(10), timeout=1)
        finally:
            await aconn.close()

    asyncio.run(main())


def test_xact_lock_wrong_connection_kinds(pg_url):
    async def main():
        aconn = await _aconn(pg_url)
        try:
            with pytest.raises(TypeError, match="advlock.aio.xact_lock"):
                advlock.xact_lock(aconn, key(11))
        finally:
            await aconn.close()
        with psycopg.connect(pg_url) as conn:
            with pytest.raises(TypeError, match="AsyncConnection"):
                await advlock.aio.try_xact_lock(conn, key(11))

    asyncio.run(main())


@contextlib.asynccontextmanager
async def transaction_while_held_elsewhere(pg_url, k):
    """(the holder's Lock of k, an AsyncConnection in a transaction that has done some work)."""
    async with await advlock.aio.connect(pg_url) as holder:
        held = await holder.try_lock(k)
        aconn = await _aconn(pg_url)
        try:
            async with aconn.transaction():
                await aconn.execute("CREATE TEMP TABLE aio_work (n int)")
                yield held, aconn
        finally:
            await aconn.close()


def test_xact_lock_timeout_leaves_the_transaction_usable(pg_url, admin):
    k = key(12)

    async def main():
        async with transaction_while_held_elsewhere(pg_url, k) as (held, aconn):
            with pytest.raises(advlock.NotAcquired, match="still usable"):
                await advlock.aio.xact_lock(aconn, k, timeout=0.1)
            assert aconn.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS
            await aconn.execute("INSERT INTO aio_work VALUES (1)")  # the transaction goes on
            assert waiting_pids(admin, k) == [] and granted_pids(admin, k) == [held.session.server_id]

    asyncio.run(main())


def test_xact_lock_cancelled_task_psycopg_cancels_on_the_server(pg_url, admin):
    """psycopg, on a task's cancellation during `await cur.execute`, sends a cancel request and waits for
    the statement to end; the wait's savepoint is then rolled back: no waiter, no lock, usable transaction."""
    k = key(13)

    async def main():
        async with transaction_while_held_elsewhere(pg_url, k) as (held, aconn):
            task = asyncio.ensure_future(advlock.aio.xact_lock(aconn, k))
            pid = aconn.info.backend_pid
            await until(lambda: waiting_pids(admin, k) == [pid], "the transaction's wait on the server")
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert waiting_pids(admin, k) == []
            assert aconn.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS
            await aconn.execute("INSERT INTO aio_work VALUES (1)")
            await held.release()
            await advlock.aio.xact_lock(aconn, k, timeout=5)  # the same transaction takes it now
            assert granted_pids(admin, k) == [pid]

    asyncio.run(main())
