"""Job slots on PostgreSQL: slots=N holds any one free slot of N ("at most N at
once"), each slot a lock of its own whose key Key.slot(n) derives (the core's
frozen rule). The MariaDB equivalent is in test_mysql.py."""
import contextlib
import threading

import pytest

import advlock
from conftest import advisory_holders, wait_until


def waits_on_the_server(admin, pid: int) -> bool:
    """The backend pid is in an advisory-lock wait (a slot wait waits on one slot at a time)."""
    return admin.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid = %s",
                         (pid,)).fetchone()[0] > 0


def test_three_holders_take_three_slots_and_a_fourth_waits_for_one(pg_url, admin):
    key = advlock.Key.from_name("py_three_exports")
    with contextlib.ExitStack() as stack:
        sessions = [stack.enter_context(advlock.connect(pg_url)) for _ in range(4)]
        locks = [s.try_lock("py_three_exports", slots=3) for s in sessions[:3]]
        assert all(lock is not None for lock in locks)
        assert sorted(lock.slot for lock in locks) == [1, 2, 3]
        for s, lock in zip(sessions, locks):
            assert lock.key == key  # what was asked for
            assert lock.server_key == key.slot(lock.slot) != key  # what the server holds
            assert advisory_holders(admin, lock.server_key) == [s.server_id]
            assert f"slot {lock.slot}" in repr(lock)
        assert advisory_holders(admin, key) == []  # the key itself is never taken

        fourth = sessions[3]
        assert fourth.try_lock("py_three_exports", slots=3) is None
        with pytest.raises(advlock.NotAcquired, match="all 3 of its slots are held"):
            fourth.lock("py_three_exports", slots=3, timeout=0)

        got = []
        waiter = threading.Thread(target=lambda: got.append(fourth.lock("py_three_exports", slots=3, timeout=60)))
        waiter.start()
        try:
            wait_until(lambda: waits_on_the_server(admin, fourth.server_id), "the fourth holder to wait")
            freed = next(lock for lock in locks if lock.slot == 2)
            freed.release()
        finally:
            waiter.join(120)
        assert got and got[0].held
        assert got[0].slot == 2 and got[0].server_key == key.slot(2)
        assert advisory_holders(admin, key.slot(2)) == [fourth.server_id]


def test_a_wait_on_the_main_thread_gets_a_freed_slot(pg_url, admin):
    """The main thread's wait (the one Ctrl-C can end: its own cancel token) with slots."""
    with advlock.connect(pg_url) as holders, advlock.connect(pg_url) as waiter:
        held = [holders.try_lock("py_main_thread_slots", slots=2) for _ in range(2)]
        assert sorted(lock.slot for lock in held) == [1, 2]

        def release_once_waiting():
            wait_until(lambda: waits_on_the_server(admin, waiter.server_id), "the main thread to wait")
            held[0].release()

        releaser = threading.Thread(target=release_once_waiting)
        releaser.start()
        try:
            lock = waiter.lock("py_main_thread_slots", slots=2, timeout=60)
        finally:
            releaser.join(120)
        assert lock.slot == held[0].slot and lock.held


def test_a_plain_lock_is_its_own_key_and_slot_zero(session, admin):
    key = advlock.Key(7021, 1)
    with session.lock(key, timeout=0) as lock:
        assert lock.slot == 0 and lock.server_key == key and not lock.fenced
        assert advisory_holders(admin, key) == [session.server_id]


def test_slot_keys_follow_the_documented_psql_rule(admin):
    """Key.slot(n) is advlock.h's frozen rule, as psql computes it from the key's text."""
    rule = ("SELECT ('x' || left(encode(sha256(convert_to('advlock-slot:' || %s || '/' || %s, 'UTF8')), 'hex'), "
            "16))::bit(64)::bigint")
    for key in (advlock.Key(100, 1), advlock.Key(-42), advlock.Key.from_name("daily_sales")):
        for n in (1, 2, 64):
            expected = admin.execute(rule, (str(key), str(n))).fetchone()[0]
            assert key.slot(n) == advlock.Key(expected), (key, n)


def test_bad_slot_numbers_are_refused(session):
    for bad in (0, -1, 65, 2**40):
        with pytest.raises(advlock.InvalidArgument, match="slots") as raised:
            session.try_lock("py_bad_slots", slots=bad)
        assert isinstance(raised.value, ValueError), bad
        with pytest.raises(advlock.InvalidArgument, match="slot"):
            advlock.Key(1).slot(bad)
    with pytest.raises(advlock.InvalidArgument, match="slots"):
        session.lock("py_bad_slots", slots=65, timeout=1)
    for wrong_type in ("3", 3.0, True):
        with pytest.raises(TypeError, match="slots"):
            session.try_lock("py_bad_slots", slots=wrong_type)
    # Slots are exclusive only.
    with pytest.raises(advlock.InvalidArgument):
        session.try_lock("py_bad_slots", slots=3, shared=True)
    # Nothing was left behind by the refusals.
    assert session.try_lock("py_bad_slots") is not None
