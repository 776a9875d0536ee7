"""Sets of locks in advlock.aio, on PostgreSQL: try_lock_all holds every key
or none, lock_all waits (awaited or async with) until all are free at once,
and a cancelled set wait leaves nothing waiting or held (pg_locks, from
another connection). The set rules themselves are the core's (tests/integration)."""
import asyncio

import pytest

import advlock
import advlock.aio
from test_aio import granted_pids, until, waiting_pids

pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")

A, B, C = (advlock.Key(2204, n) for n in (1, 2, 3))


def test_try_lock_all_holds_every_key_or_none(pg_url, admin):
    async def main():
        async with await advlock.aio.connect(pg_url) as one, await advlock.aio.connect(pg_url) as two:
            async with await one.try_lock_all([A, B]) as locks:
                assert isinstance(locks, advlock.aio.LockSet)
                assert locks.held and len(locks) == 2 and locks.keys == [A, B]
                assert granted_pids(admin, A) == granted_pids(admin, B) == [one.server_id]
                await locks.verify(strict=True)
                locks.ensure_held()
                assert repr(locks).startswith("<advlock.aio.LockSet")
                # B is taken: two gets neither B nor the free C.
                assert await two.try_lock_all([C, B]) is None
                assert granted_pids(admin, C) == []
            assert not locks.held
            assert granted_pids(admin, A) == granted_pids(admin, B) == []
            with pytest.raises(advlock.Misuse):
                await locks.release()  # twice: as the synchronous API
            with pytest.raises(advlock.InvalidArgument):
                await one.try_lock_all([A, A])

    asyncio.run(main())


def test_lock_all_waits_for_the_whole_set_and_times_out_holding_nothing(pg_url, admin):
    async def main():
        async with await advlock.aio.connect(pg_url) as holder, await advlock.aio.connect(pg_url) as waiter:
            held = await holder.try_lock(B)
            with pytest.raises(advlock.NotAcquired, match="none is held"):
                await waiter.lock_all([A, B], timeout=0.1)
            with pytest.raises(advlock.NotAcquired, match="timeout=0"):
                await waiter.lock_all([A, B], timeout=0)
            assert granted_pids(admin, A) == [] and waiting_pids(admin, B) == []

            async def take_set():
                async with waiter.lock_all([A, B], timeout=30) as locks:
                    assert granted_pids(admin, A) == granted_pids(admin, B) == [waiter.server_id]
                    return locks

            task = asyncio.ensure_future(take_set())
            await until(lambda: waiting_pids(admin, A) + waiting_pids(admin, B) == [waiter.server_id],
                        "the set's wait on the server")
            await held.release()
            locks = await task
            assert not locks.held  # released on leaving the async with
            assert granted_pids(admin, A) == granted_pids(admin, B) == []

    asyncio.run(main())


def test_a_cancelled_set_wait_leaves_no_waiter_and_no_lock(pg_url, admin):
    async def main():
        async with await advlock.aio.connect(pg_url) as holder, await advlock.aio.connect(pg_url) as waiter:
            held = await holder.try_lock(C)
            task = asyncio.ensure_future(waiter.lock_all([A, C]))
            await until(lambda: waiting_pids(admin, A) + waiting_pids(admin, C) == [waiter.server_id],
                        "the set's wait on the server")
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert waiting_pids(admin, A) == waiting_pids(admin, C) == []
            assert granted_pids(admin, A) == [] and granted_pids(admin, C) == [holder.server_id]
            await held.release()
            again = await waiter.lock_all([A, C], timeout=5)  # the cancelled session is usable
            assert granted_pids(admin, A) == granted_pids(admin, C) == [waiter.server_id]
            await again.release()

    asyncio.run(main())
