"""Loss: the server ends the lock session; the callback fires once, and every
later use says LockLost, never carries on as if held."""
import asyncio
import select
import signal
import threading
import time

import pytest

import advlock
from conftest import python_child


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


def readable(fd, timeout):
    """Whether fd is readable within timeout seconds (0: right now)."""
    return select.select([fd], [], [], timeout)[0] == [fd]


def test_loss_fd_turns_readable_once_lost_and_stays_so(pg_url, admin):
    with advlock.connect(pg_url) as session:
        lock = session.try_lock("watched_by_fd")
        fd = session.loss_fd()
        assert isinstance(fd, int) and fd >= 0 and session.loss_fd() == fd
        assert not readable(fd, 0)  # held: nothing to report
        terminate(admin, session.server_id)
        assert readable(fd, 60), "the loss fd never turned readable"
        assert readable(fd, 0)  # and stays so (nothing reads it)
        with pytest.raises(advlock.LockLost):
            session.check()
        assert not lock.held


def test_loss_fd_turns_readable_on_close(pg_url):
    session = advlock.connect(pg_url)
    session.try_lock("watched_until_close")
    fd = session.loss_fd()
    assert not readable(fd, 0)
    session.close()
    assert readable(fd, 60)


def test_loss_fd_with_asyncio(pg_url, admin):
    async def main(session):
        loop = asyncio.get_running_loop()
        noticed = loop.create_future()
        fd = session.loss_fd()
        loop.add_reader(fd, lambda: noticed.done() or noticed.set_result(None))
        try:
            terminate(admin, session.server_id)
            await asyncio.wait_for(noticed, 60)
        finally:
            loop.remove_reader(fd)

    with advlock.connect(pg_url) as session:
        session.try_lock("watched_by_asyncio")
        asyncio.run(main(session))
        assert session.lost


def test_wait_lost_returns_when_the_time_runs_out_and_raises_once_lost(pg_url, admin):
    with advlock.connect(pg_url) as session:
        session.try_lock("waited_for")
        assert session.wait_lost(timeout=0) is None
        assert session.wait_lost(timeout=0.05) is None  # held all along
        terminate(admin, session.server_id)
        with pytest.raises(advlock.LockLost, match="terminat"):
            session.wait_lost()
        with pytest.raises(advlock.LockLost):
            session.wait_lost(timeout=0)
        with pytest.raises(advlock.InvalidArgument, match="timeout"):
            session.wait_lost(timeout=-1)
    with pytest.raises(advlock.Misuse, match="closed"):
        session.wait_lost()


def test_close_ends_wait_lost_on_another_thread(pg_url):
    session = advlock.connect(pg_url)
    outcome = []

    def watch():
        try:
            session.wait_lost()
            outcome.append("returned")
        except advlock.Error as error:
            outcome.append(type(error).__name__)

    watcher = threading.Thread(target=watch)
    watcher.start()
    time.sleep(0.2)  # let it enter the wait; not an assertion (closing first also says Misuse)
    session.close()
    watcher.join(60)
    assert outcome == ["Misuse"]


WAIT_LOST_IN_CHILD = """
import sys, advlock
session = advlock.connect(sys.argv[1])
try:
    print("ready", flush=True)
    session.wait_lost()
    print("returned", flush=True)
except KeyboardInterrupt:
    print("interrupted", session.lost, flush=True)
"""


def test_ctrl_c_ends_wait_lost_on_the_main_thread(pg_url):
    child = python_child(WAIT_LOST_IN_CHILD, pg_url)
    assert child.stdout.readline().strip() == "ready"
    time.sleep(0.3)  # let it enter the wait; not an assertion
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert out.strip() == "interrupted False", err
    assert child.returncode == 0
