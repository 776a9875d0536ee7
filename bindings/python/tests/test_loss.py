"""Loss: the server ends the lock session; the callback fires once, and every
later use says LockLost, never carries on as if held."""
import threading

import pytest

import advlock


def terminate(admin, pid):
    assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()[0]


def test_terminated_backend_means_lock_lost_and_callback(pg_url, admin):
    reasons = []
    fired = threading.Event()

    def on_lost(why):
        reasons.append(why)
        fired.set()

    session = advlock.connect(pg_url, on_lost=on_lost)
    lock = session.try_lock("doomed")
    assert lock.held and not session.lost
    terminate(admin, session.server_id)
    assert fired.wait(30), "the lost callback never fired"
    assert len(reasons) == 1 and "terminat" in reasons[0]
    assert session.lost and not lock.held
    with pytest.raises(advlock.LockLost) as raised:
        lock.ensure_held()
    assert raised.value.status_name == "ADVLOCK_ELOST"
    assert str(raised.value).startswith(f"lock 'doomed' (key {advlock.Key.from_name('doomed')}): ")  # the name given, not the bigint
    with pytest.raises(advlock.LockLost):
        session.check()
    with pytest.raises(advlock.LockLost):
        session.try_lock("another")
    with pytest.raises(advlock.LockLost):
        lock.release()
    session.close()
    assert len(reasons) == 1


def test_lock_lost_inside_with_block_raises_at_exit(pg_url, admin):
    with advlock.connect(pg_url) as session:
        with pytest.raises(advlock.LockLost):
            with session.lock("work", timeout=0) as lock:
                terminate(admin, session.server_id)
                session.verify  # the body goes on unaware until it checks...
                with pytest.raises(advlock.LockLost):
                    lock.verify()  # ...verify finds out with one round trip


def test_callback_set_after_the_loss_fires_at_once(pg_url, admin):
    session = advlock.connect(pg_url)
    session.try_lock(5)
    terminate(admin, session.server_id)
    with pytest.raises(advlock.LockLost):
        session.verify()
    reasons = []
    session.on_lost(reasons.append)
    assert len(reasons) == 1
    session.close()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_callback_exception_does_not_break_the_session(pg_url, admin):
    fired = threading.Event()

    def broken(why):
        fired.set()
        raise RuntimeError("callback bug")

    session = advlock.connect(pg_url, on_lost=broken)
    terminate(admin, session.server_id)
    assert fired.wait(30)
    with pytest.raises(advlock.LockLost):
        session.check()
    session.close()


def test_callback_may_close_its_own_session(pg_url, admin):
    closed = threading.Event()
    session = advlock.connect(pg_url)

    def close_it(why):
        session.close()
        closed.set()

    session.on_lost(close_it)
    terminate(admin, session.server_id)
    assert closed.wait(30)
    assert session.closed
