"""Sets of locks, all or nothing, on PostgreSQL: Session.try_lock_all holds
every key or none, lock_all waits until all are free at once, and a LockSet
releases them together. The order that keeps overlapping sets from
deadlocking is the core's (tests/integration); here what Python adds."""
import contextlib
import threading

import pytest

import advlock
from conftest import advisory_holders, wait_until

DAILY, INVENTORY, LEDGER = (advlock.Key.from_name(n) for n in ("py_set_daily", "py_set_inventory", "py_set_ledger"))


def waits_on_the_server(admin, pid: int) -> bool:
    return admin.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid = %s",
                         (pid,)).fetchone()[0] > 0


def test_a_try_holds_every_key_of_the_set_and_releases_them_together(session, admin):
    with session.try_lock_all(["py_set_daily", "py_set_inventory"]) as locks:
        assert isinstance(locks, advlock.LockSet)
        assert locks.held and len(locks) == 2
        assert locks.keys == [DAILY, INVENTORY]
        assert advisory_holders(admin, DAILY) == advisory_holders(admin, INVENTORY) == [session.server_id]
        assert "'py_set_daily'" in repr(locks) and "held>" in repr(locks)
        locks.ensure_held()
        locks.verify(strict=True)
    assert not locks.held
    assert advisory_holders(admin, DAILY) == advisory_holders(admin, INVENTORY) == []


def test_a_try_against_one_held_key_gets_none_and_keeps_nothing(pg_url, admin):
    with advlock.connect(pg_url) as holder, advlock.connect(pg_url) as other:
        held = holder.try_lock("py_set_inventory")
        assert held is not None
        assert other.try_lock_all(["py_set_daily", "py_set_inventory", "py_set_ledger"]) is None
        # The free keys were not kept either: all or nothing.
        assert advisory_holders(admin, DAILY) == advisory_holders(admin, LEDGER) == []
        with pytest.raises(advlock.NotAcquired, match="not all of them were free"):
            other.lock_all(["py_set_daily", "py_set_inventory"], timeout=0)
        assert advisory_holders(admin, DAILY) == []
        held.release()


def test_a_wait_gets_the_whole_set_once_the_last_key_is_freed(pg_url, admin):
    with advlock.connect(pg_url) as holder, advlock.connect(pg_url) as waiter:
        held = holder.try_lock("py_set_ledger")
        got = []
        thread = threading.Thread(target=lambda: got.append(waiter.lock_all(["py_set_ledger", "py_set_daily"],
                                                                            timeout=60)))
        thread.start()
        wait_until(lambda: waits_on_the_server(admin, waiter.server_id), "the set's wait on the server")
        assert advisory_holders(admin, DAILY) == []  # nothing held while it waits
        held.release()
        thread.join(60)
        assert not thread.is_alive() and len(got) == 1
        assert got[0].keys == [LEDGER, DAILY]
        assert advisory_holders(admin, LEDGER) == advisory_holders(admin, DAILY) == [waiter.server_id]
        got[0].release()


def test_a_timed_out_wait_leaves_no_lock_behind(pg_url, admin):
    with advlock.connect(pg_url) as holder, advlock.connect(pg_url) as waiter:
        held = holder.try_lock("py_set_daily")
        with pytest.raises(advlock.NotAcquired, match="gave up after 0.2 s"):
            waiter.lock_all(["py_set_inventory", "py_set_daily"], timeout=0.2)
        assert advisory_holders(admin, INVENTORY) == []
        held.release()


def test_shared_sets_do_not_exclude_each_other_but_exclude_an_exclusive_one(pg_url):
    with contextlib.ExitStack() as stack:
        a, b, c = (stack.enter_context(advlock.connect(pg_url)) for _ in range(3))
        first = a.try_lock_all(["py_set_daily", "py_set_ledger"], shared=True)
        second = b.try_lock_all(["py_set_ledger", "py_set_daily"], shared=True)
        assert first is not None and second is not None and first.shared
        assert c.try_lock_all(["py_set_daily"]) is None
        first.release()
        second.release()
        assert c.try_lock_all(["py_set_daily"]) is not None


def test_a_second_release_is_misuse(session):
    locks = session.try_lock_all(["py_set_daily", "py_set_inventory"])
    locks.release()
    with pytest.raises(advlock.Misuse):
        locks.release()


def test_bad_sets_are_refused_with_what_to_do(session, admin):
    with pytest.raises(TypeError, match="list of keys"):
        session.try_lock_all("py_set_daily")  # a str is one key, not its characters
    with pytest.raises(TypeError, match="list of keys"):
        session.lock_all(DAILY)
    with pytest.raises(advlock.InvalidArgument):
        session.try_lock_all([])
    with pytest.raises(advlock.InvalidArgument):
        session.try_lock_all(["py_set_daily", "py_set_daily"])  # the same lock twice
    assert advisory_holders(admin, DAILY) == []


def test_closing_the_session_ends_a_sets_wait_with_misuse(pg_url, admin):
    with advlock.connect(pg_url) as holder, advlock.connect(pg_url) as waiter:
        held = holder.try_lock("py_set_inventory")
        errors = []

        def wait():
            try:
                waiter.lock_all(["py_set_daily", "py_set_inventory"], timeout=60)
            except advlock.Error as error:
                errors.append(error)

        thread = threading.Thread(target=wait)
        thread.start()
        wait_until(lambda: waits_on_the_server(admin, waiter.server_id), "the set's wait on the server")
        waiter.close()
        thread.join(60)
        assert not thread.is_alive() and len(errors) == 1 and isinstance(errors[0], advlock.Misuse)
        assert advisory_holders(admin, DAILY) == []
        held.release()
