"""Session locks on a real server: contention between processes, waits and
timeouts, shared mode, holders, and misuse."""
import gc
import threading

import pytest

import advlock
from conftest import advisory_holders, has_waiter, python_child, wait_until

HOLD_IN_CHILD = """
import sys, advlock
with advlock.connect(sys.argv[1], application_name="child-holder") as s:
    lock = s.try_lock(advlock.Key.parse(sys.argv[2]))
    print("held" if lock else "busy", s.server_id, flush=True)
    sys.stdin.readline()      # hold until the parent says so
"""


def test_try_lock_excludes_another_process(pg_url, session, admin):
    key = advlock.Key(100, 1)
    child = python_child(HOLD_IN_CHILD, pg_url, str(key))
    try:
        state, pid = child.stdout.readline().split()
        assert state == "held"
        assert advisory_holders(admin, key) == [int(pid)]
        assert session.try_lock(key) is None
        assert session.try_lock((100, 1)) is None
    finally:
        child.communicate("\n", timeout=30)
    # The server frees a closed connection's locks on its own time: wait for it.
    wait_until(lambda: advisory_holders(admin, key) == [], "the child's lock to be freed")
    lock = session.try_lock(key)
    assert lock is not None and lock.held
    assert advisory_holders(admin, key) == [session.server_id]
    lock.release()
    assert not lock.held
    assert advisory_holders(admin, key) == []


def test_lock_is_a_context_manager(session, admin):
    key = advlock.Key.from_name("context_managed")
    with session.lock("context_managed", timeout=0) as lock:
        assert lock.key == key and not lock.shared
        assert advisory_holders(admin, key) == [session.server_id]
        lock.ensure_held()
        lock.verify()
        lock.verify(strict=True)
    assert advisory_holders(admin, key) == []


def test_lock_times_out_with_not_acquired(pg_url, session):
    with advlock.connect(pg_url) as other:
        held = other.try_lock(42)
        with pytest.raises(advlock.NotAcquired, match="42") as raised:
            session.lock(42, timeout=0.2)
        assert raised.value.status == 1
        with pytest.raises(advlock.NotAcquired):
            session.lock(42, timeout=0)
        held.release()
    with session.lock(42, timeout=5):
        pass


def test_wait_is_granted_when_the_holder_lets_go(pg_url, session):
    with advlock.connect(pg_url) as other:
        held = other.try_lock("handoff")
        got = []
        waiter = threading.Thread(target=lambda: got.append(session.lock("handoff", timeout=60)))
        waiter.start()
        wait_until(lambda: has_waiter(other, "handoff"), "the waiter")
        held.release()
        waiter.join(60)
        assert got and got[0].held
        got[0].release()


def test_cancel_from_another_thread(pg_url, session, admin):
    with advlock.connect(pg_url) as other:
        held = other.try_lock("cancel_me")
        errors = []

        def wait():
            try:
                session.lock("cancel_me")
            except advlock.Error as e:
                errors.append(e)

        waiter = threading.Thread(target=wait)
        waiter.start()
        wait_until(lambda: has_waiter(other, "cancel_me"), "the waiter")
        session.cancel()
        waiter.join(60)
        assert len(errors) == 1 and isinstance(errors[0], advlock.Canceled)
        assert held.held
    wait_until(lambda: advisory_holders(admin, advlock.Key.from_name("cancel_me")) == [], "the closed session's lock")
    assert session.try_lock("cancel_me") is not None


def test_shared_locks(pg_url, session):
    with advlock.connect(pg_url) as other:
        a = session.try_lock("report", shared=True)
        b = other.try_lock("report", shared=True)
        assert a and b and a.shared
        assert other.try_lock("report") is None
        holders = session.holders("report")
        assert sorted(h.is_self for h in holders) == [False, True]
        assert all(h.shared and h.granted for h in holders)
        assert isinstance(holders, list) and holders.note == ""  # pg_locks shows holders and waiters alike


def test_holders_name_the_holder(pg_url, session, tmp_path):
    path = tmp_path / "registry.toml"
    path.write_text("[locks.daily_sales]\nkey = [100, 1]\n")
    with advlock.connect(pg_url, registry=str(path), application_name="nightly") as named:
        lock = named.try_lock("daily_sales")  # the registry's key, not the name scheme
        assert lock.key == advlock.Key(100, 1)
        [row] = named.holders(advlock.Key(100, 1))
        assert row.name == "daily_sales" and row.is_self and row.granted
        assert row.application_name == "nightly" and row.server_id == named.server_id
        assert row.backend_start is not None and row.backend_start.tzinfo is not None
        assert [h.server_id for h in session.holders("daily_sales")] == []  # session has no registry: name scheme
        with pytest.raises(advlock.NotFound):
            named.try_lock("daily_sale")


def test_misuse_is_reported(pg_url):
    session = advlock.connect(pg_url)
    lock = session.try_lock(7)
    lock.release()
    with pytest.raises(advlock.Misuse):
        lock.release()
    with pytest.raises(advlock.Misuse):
        lock.ensure_held()
    session.close()
    session.close()  # twice is fine
    assert session.closed
    for call in (lambda: session.try_lock(7), lambda: session.lock(7), session.verify, session.check,
                 lambda: session.holders()):
        with pytest.raises(advlock.Misuse, match="closed"):
            call()
    with pytest.raises(TypeError, match="advlock.Key"):
        advlock.connect(pg_url).try_lock(1.5)


def test_lock_outlives_its_session_object(pg_url, admin):
    session = advlock.connect(pg_url)
    lock = session.try_lock(8)
    del session  # the lock keeps the session alive: still held
    assert lock.held and advisory_holders(admin, advlock.Key(8)) != []
    lock.release()


def test_bad_options_are_refused(pg_url):
    with pytest.raises(advlock.InvalidArgument, match="timeout"):
        advlock.connect(pg_url).lock(1, timeout=-1)
    with pytest.raises(advlock.InvalidArgument):
        advlock.connect(pg_url, heartbeat_interval=3601, heartbeat_deadline=10)  # over an hour
    with pytest.raises(advlock.InvalidArgument, match="stop grace"):
        advlock.connect(pg_url, stop_grace=3601)  # over an hour: the core's limit, so the value reached it
    with advlock.connect(pg_url, stop_grace=0.5) as short_grace:
        assert short_grace.try_lock(advlock.Key(9)) is not None
    with pytest.raises(advlock.ConnectError) as raised:
        advlock.connect("postgresql://someone:s3cret-pw@127.0.0.1:1/db")
    assert "s3cret-pw" not in str(raised.value)


def test_local_backend_between_processes(tmp_path):
    url = f"local:{tmp_path}"
    child = python_child(HOLD_IN_CHILD.replace("s.server_id", "0"), url, "name:local_job")
    try:
        assert child.stdout.readline().split()[0] == "held"
        with advlock.connect(url) as s:
            assert s.try_lock("local_job") is None
    finally:
        child.communicate("\n", timeout=30)
    with advlock.connect(url) as s:
        assert s.try_lock("local_job") is not None


def test_a_lock_directory_others_may_write_is_refused(tmp_path):
    shared = tmp_path / "everyone"
    shared.mkdir()
    shared.chmod(0o777)  # writable by all, not sticky: anyone could swap its lock files
    with pytest.raises(advlock.UnsafeLockDirectory) as raised:
        advlock.connect(f"local:{shared}")
    assert isinstance(raised.value, advlock.UnsafeTarget)
    assert raised.value.status_name == "ADVLOCK_EUNSAFEDIR"
    assert "chmod o-w" in str(raised.value)
    assert oct(shared.stat().st_mode & 0o7777) == "0o777", "advlock never changes a directory it did not make"


def test_read_only_target_is_refused_unless_allowed(pg_url):
    read_only = pg_url + ("&" if "?" in pg_url else "?") + "options=-c%20default_transaction_read_only%3Don"
    with pytest.raises(advlock.ReadOnlyTarget) as raised:
        advlock.connect(read_only)
    assert isinstance(raised.value, advlock.UnsafeTarget)
    assert raised.value.status_name == "ADVLOCK_EREADONLY"
    with advlock.connect(read_only, allow_standby=True) as session:
        assert session.try_lock("read_only_ok") is not None


def test_close_from_another_thread_ends_a_wait(pg_url, session):
    with advlock.connect(pg_url) as waiter:
        held = session.try_lock("close_while_waiting")
        errors = []

        def wait():
            try:
                waiter.lock("close_while_waiting")
            except advlock.Error as e:
                errors.append(e)

        thread = threading.Thread(target=wait)
        thread.start()
        wait_until(lambda: has_waiter(session, "close_while_waiting"), "the waiter")
        waiter.close()
        thread.join(60)
        # Misuse, not Canceled: the session is closed (cancel() says Canceled).
        assert len(errors) == 1 and isinstance(errors[0], advlock.Misuse), errors
        assert "closed" in str(errors[0])
        assert waiter.closed and held.held
        with pytest.raises(advlock.Misuse, match="closed"):
            waiter.try_lock("close_while_waiting")
    del waiter
    gc.collect()  # freed after a close from another thread: the process lives on
    assert session.try_lock("close_while_waiting") is None  # held is still held


def test_reprs_and_messages_name_the_lock_as_given(pg_url, session):
    registry = advlock.Registry.parse('[locks.daily_sales]\nkey = [100, 1]\n')
    nightly = f"'nightly_report' (key {advlock.Key.from_name('nightly_report')})"
    with advlock.connect(pg_url, registry=registry) as named, advlock.connect(pg_url, registry=registry) as other:
        by_name = session.try_lock("nightly_report")
        assert repr(by_name) == f"<advlock.Lock {nightly}, exclusive, held>"
        by_registry = named.try_lock("daily_sales", shared=True)
        assert repr(by_registry) == "<advlock.Lock 'daily_sales' (key 100:1), shared, held>"
        assert repr(session.try_lock(advlock.Key(7, 8))) == "<advlock.Lock 7:8, exclusive, held>"
        with pytest.raises(advlock.NotAcquired) as raised:
            other.lock("daily_sales", timeout=0)
        assert str(raised.value).startswith("lock 'daily_sales' (key 100:1) is held")
        with advlock.connect(pg_url) as third:
            with pytest.raises(advlock.NotAcquired) as raised:
                third.lock(advlock.Key.from_name("nightly_report"), timeout=0.1)
            assert str(raised.value).startswith(f"lock {nightly} is held")
        by_name.release()
        assert repr(by_name) == f"<advlock.Lock {nightly}, exclusive, not held>"
        with pytest.raises(advlock.Misuse) as raised:
            by_name.release()
        assert str(raised.value).count("nightly_report") == 1  # named once, by the core
        by_registry.release()
        with pytest.raises(advlock.Misuse) as raised:
            by_registry.ensure_held()
        assert str(raised.value).startswith("lock 'daily_sales' (key 100:1): ")
    # Quoted as the core quotes names: safe to print.
    assert advlock._advlock.key_label("x\n").startswith("'x\\x0A' (key ")
