"""Ctrl-C during a wait: the server-side wait is cancelled, KeyboardInterrupt
is raised, and no lock is left behind, even when the lock is granted at the
same moment the signal arrives."""
import signal

import advlock
from conftest import advisory_holders, has_waiter, python_child, wait_until

WAIT_IN_CHILD = """
import sys, threading, advlock
key = advlock.Key.parse(sys.argv[2])
session = advlock.connect(sys.argv[1], application_name="child-waiter")
print(session.server_id, flush=True)
lock = None
try:
    lock = session.lock(key)
    threading.Event().wait()  # acquired: wait for the Ctrl-C that is coming anyway
except KeyboardInterrupt:
    mine = [h for h in session.holders(key) if h.is_self]
    # held by a Lock object, locks this session holds or waits for
    print(int(lock is not None), len(mine), flush=True)
    sys.stdin.readline()
"""


def start_waiter(pg_url, key, holder_session):
    child = python_child(WAIT_IN_CHILD, pg_url, str(key))
    pid = int(child.stdout.readline())
    wait_until(lambda: has_waiter(holder_session, key), "the child's wait on the server")
    return child, pid


def test_ctrl_c_cancels_the_server_side_wait(pg_url, admin):
    key = advlock.Key(300, 1)
    with advlock.connect(pg_url) as holder:
        held = holder.try_lock(key)
        child, pid = start_waiter(pg_url, key, holder)
        child.send_signal(signal.SIGINT)
        assert child.stdout.readline().split() == ["0", "0"]  # no Lock, nothing held or waited for
        # The wait is gone from the server while the child process lives on.
        assert not has_waiter(holder, key)
        assert held.held
        child.communicate("\n", timeout=30)
    assert child.returncode == 0


def test_ctrl_c_racing_the_grant_leaks_no_lock(pg_url, admin):
    key = advlock.Key(300, 2)
    outcomes = {"interrupted in the wait": 0, "interrupted after the grant": 0}
    with advlock.connect(pg_url) as holder:
        for _ in range(15):
            held = holder.try_lock(key)
            child, pid = start_waiter(pg_url, key, holder)
            held.release()                       # grant and Ctrl-C at (nearly) the same moment
            child.send_signal(signal.SIGINT)
            has_lock_object, holds = child.stdout.readline().split()
            # The server shows a lock for this session exactly when the program
            # has a Lock for it: a grant that raced the Ctrl-C was released.
            assert holds == has_lock_object
            assert (pid in advisory_holders(admin, key)) == (has_lock_object == "1")
            outcomes["interrupted after the grant" if has_lock_object == "1" else "interrupted in the wait"] += 1
            child.communicate("\n", timeout=30)
            wait_until(lambda: advisory_holders(admin, key) == [], "the child's connection to end")
    assert sum(outcomes.values()) == 15
    print(outcomes)


XACT_WAIT_IN_CHILD = """
import sys, threading, psycopg, advlock
key = advlock.Key.parse(sys.argv[2])
with psycopg.connect(sys.argv[1]) as conn:
    conn.execute("SELECT 1")
    print(conn.info.backend_pid, flush=True)
    try:
        advlock.xact_lock(conn, key)
        print("acquired", flush=True)
    except KeyboardInterrupt:
        # The transaction goes on, without the lock (granted in a race or not).
        held = conn.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()")
        print("interrupted", held.fetchone()[0], flush=True)
    sys.stdin.readline()
"""


def test_ctrl_c_ends_a_transaction_lock_wait(pg_url, admin):
    key = advlock.Key(300, 3)
    with advlock.connect(pg_url) as holder:
        held = holder.try_lock(key)
        child = python_child(XACT_WAIT_IN_CHILD, pg_url, str(key))
        int(child.stdout.readline())
        wait_until(lambda: has_waiter(holder, key), "the child's wait on the server")
        child.send_signal(signal.SIGINT)
        assert child.stdout.readline().split() == ["interrupted", "0"]
        assert not has_waiter(holder, key)
        assert held.held
        child.communicate("\n", timeout=30)
    assert child.returncode == 0


HANDLER_IN_CHILD = """
import signal, sys, advlock
signal.signal(signal.SIGUSR1, lambda *_: print("handler ran", flush=True))
key = advlock.Key.parse(sys.argv[2])
with advlock.connect(sys.argv[1]) as session:
    print(session.server_id, flush=True)
    with session.lock(key, timeout=600):
        print("acquired", flush=True)
"""


def test_a_signal_handler_that_does_not_raise_runs_and_the_wait_goes_on(pg_url):
    key = advlock.Key(300, 4)
    with advlock.connect(pg_url) as holder:
        held = holder.try_lock(key)
        child = python_child(HANDLER_IN_CHILD, pg_url, str(key))
        int(child.stdout.readline())
        wait_until(lambda: has_waiter(holder, key), "the child's wait on the server")
        child.send_signal(signal.SIGUSR1)
        assert child.stdout.readline().strip() == "handler ran"  # during the wait, not after it
        wait_until(lambda: has_waiter(holder, key), "the child's wait to go on")
        held.release()
        assert child.stdout.readline().strip() == "acquired"
        child.communicate(timeout=30)
    assert child.returncode == 0
