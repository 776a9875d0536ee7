"""One lock, one owner: threads sharing a session exclude each other, as
threads sharing a threading.Lock do; re-entry only when asked for
(reentrant=True, as threading.RLock). Ctrl-C ends the main thread's wait only."""
import gc
import signal
import threading
import time

import pytest

import advlock
from conftest import has_waiter, python_child, wait_until

THREADS, ROUNDS = 8, 25


class Overlap:
    """Counts who is inside a critical section at once (the test's own check)."""

    def __init__(self):
        self.guard = threading.Lock()
        self.inside = self.entries = self.overlaps = 0

    def enter(self):
        with self.guard:
            self.inside += 1
            self.entries += 1
            if self.inside != 1:
                self.overlaps += 1

    def leave(self):
        with self.guard:
            self.inside -= 1


def run_threads(target):
    errors = []

    def guarded():
        try:
            target()
        except BaseException as error:  # reported by the test, not lost in the thread
            errors.append(error)

    threads = [threading.Thread(target=guarded) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert not any(t.is_alive() for t in threads), "a thread never finished"
    assert errors == []


def test_threads_sharing_a_session_never_overlap(session):
    seen = Overlap()

    def work():
        for _ in range(ROUNDS):
            with session.lock("shared_counter"):
                seen.enter()
                time.sleep(0.001)
                seen.leave()

    run_threads(work)
    assert seen.entries == THREADS * ROUNDS
    assert seen.overlaps == 0


def test_threads_trying_on_one_session_never_overlap(session):
    seen = Overlap()
    misses = []

    def work():
        for _ in range(ROUNDS * 4):
            lock = session.try_lock("shared_try")
            if lock is None:
                misses.append(1)
                continue
            with lock:
                seen.enter()
                time.sleep(0.001)
                seen.leave()

    run_threads(work)
    assert seen.entries > 0 and seen.entries + len(misses) == THREADS * ROUNDS * 4
    assert seen.overlaps == 0


def test_shared_holders_on_one_session_do_not_exclude_each_other(session):
    a = session.try_lock("shared_mode", shared=True)
    b = session.try_lock("shared_mode", shared=True)
    assert a is not None and b is not None
    assert session.try_lock("shared_mode") is None  # exclusive waits for both
    a.release()
    assert session.try_lock("shared_mode") is None
    b.release()
    assert session.try_lock("shared_mode") is not None


def test_each_lock_is_its_own_owner_even_on_one_thread(session):
    first = session.try_lock("own_owner")
    assert not first.reentrant
    assert session.try_lock("own_owner") is None           # as threading.Lock: no re-entry
    with pytest.raises(advlock.Deadlock) as raised:         # waiting for itself could never end
        session.lock("own_owner", timeout=60)
    assert "own_owner" in str(raised.value)
    first.release()
    assert session.try_lock("own_owner") is not None


def test_reentrant_locks_of_one_thread_are_one_owner(session):
    outer = session.lock("reentrant_job", reentrant=True)
    inner = session.lock("reentrant_job", timeout=5, reentrant=True)  # the same thread, again
    again = session.try_lock("reentrant_job", reentrant=True)
    assert outer.held and inner.held and again is not None
    assert inner.reentrant and repr(inner).endswith(", exclusive, reentrant, held>")
    assert session.try_lock("reentrant_job") is None  # a non-reentrant Lock is another owner
    other_thread = []

    def from_another_thread():
        other_thread.append(session.try_lock("reentrant_job", reentrant=True))
        try:
            session.lock("reentrant_job", timeout=0.2, reentrant=True)
            other_thread.append("acquired")
        except advlock.NotAcquired:
            other_thread.append("not acquired")

    t = threading.Thread(target=from_another_thread)
    t.start()
    t.join(60)
    assert other_thread == [None, "not acquired"]  # another thread is still excluded
    for lock in (again, inner):
        lock.release()
    assert session.try_lock("reentrant_job") is None  # each handle releases once: outer still holds
    outer.release()
    assert session.try_lock("reentrant_job") is not None


def test_a_waiting_thread_gets_the_lock_when_the_holder_releases(session):
    held = session.try_lock("handoff_in_session")
    got = []
    waiter = threading.Thread(target=lambda: got.append(session.lock("handoff_in_session", timeout=60)))
    waiter.start()
    time.sleep(0.05)  # let it start waiting; not an assertion
    assert got == []
    held.release()
    waiter.join(60)
    assert got and got[0].held
    got[0].release()


CTRL_C_WITH_A_WORKER = """
import sys, threading, advlock
key = advlock.Key.parse(sys.argv[2])
with advlock.connect(sys.argv[1]) as session:
    worker = []
    def wait_in_worker():
        try:
            with session.lock(key, timeout=600):
                worker.append("acquired")
        except BaseException as error:
            worker.append(type(error).__name__)
    t = threading.Thread(target=wait_in_worker)
    t.start()
    print("ready", flush=True)
    try:
        session.lock(key, timeout=600)
        print("main acquired", flush=True)
    except KeyboardInterrupt:
        print("main interrupted", "worker still waiting" if t.is_alive() else worker, flush=True)
    t.join(600)
    print("worker", worker[0], flush=True)
"""


def test_ctrl_c_ends_the_main_threads_wait_only(pg_url):
    key = advlock.Key(300, 5)
    with advlock.connect(pg_url) as holder:
        held = holder.try_lock(key)
        child = python_child(CTRL_C_WITH_A_WORKER, pg_url, str(key))
        assert child.stdout.readline().strip() == "ready"
        wait_until(lambda: has_waiter(holder, key), "the child's wait on the server")
        time.sleep(0.2)  # both threads waiting; not an assertion
        child.send_signal(signal.SIGINT)
        assert child.stdout.readline().strip() == "main interrupted worker still waiting"
        held.release()
        assert child.stdout.readline().strip() == "worker acquired"
        child.communicate(timeout=30)
    assert child.returncode == 0


def test_dropping_a_held_lock_never_waits_for_the_sessions_server_wait(pg_url, session):
    """A Lock's finalizer (here: del + gc.collect() on a thread of its own)
    returns while another thread of the session waits on the server: the
    release runs later, on the session's own thread. The order of events
    proves it: had the finalizer waited for the connection, it could only
    return after the wait, which only ends once the finalizer returned."""
    with advlock.connect(pg_url) as other:
        blocker = other.try_lock("drop_blocker")
        dropped = [session.try_lock("drop_me")]
        events = []

        def wait_on_the_server():
            with session.lock("drop_blocker", timeout=None):
                events.append("waiter acquired")

        def drop():
            dropped.clear()
            gc.collect()
            events.append("dropped")

        waiter = threading.Thread(target=wait_on_the_server)
        waiter.start()
        wait_until(lambda: has_waiter(other, "drop_blocker"), "the waiter on the server")
        dropper = threading.Thread(target=drop)
        dropper.start()
        dropper.join(120)  # only so that a finalizer that blocks fails below instead of hanging
        blocker.release()
        waiter.join(120)
        dropper.join(120)
        assert events == ["dropped", "waiter acquired"]
        # And the dropped lock was released after all.
        wait_until(lambda: other.try_lock("drop_me") is not None, "the dropped lock's release")
