"""Transaction-scoped locks on the user's own psycopg / psycopg2 connection:
held until COMMIT or ROLLBACK, in the user's transaction, which the driver's
implicit BEGIN opens on a default connection. (test_xact_drivers.py runs the
same through each psycopg implementation: python, c, binary.)"""
import threading

import psycopg
import pytest

import advlock
from conftest import advisory_holders, has_waiter, wait_until

KEY = advlock.Key(500, 1)


def lock_timeout(conn) -> str:
    return conn.execute("SELECT current_setting('lock_timeout')").fetchone()[0]


@pytest.mark.parametrize("end", ["commit", "rollback"])
def test_psycopg_lock_ends_with_the_transaction(pg_url, session, admin, end):
    with psycopg.connect(pg_url) as conn:
        with conn.transaction() as tx:
            assert advlock.try_xact_lock(conn, KEY) is True
            assert advisory_holders(admin, KEY) == [conn.info.backend_pid]
            assert session.try_lock(KEY) is None
            if end == "rollback":
                raise psycopg.Rollback(tx)
        assert advisory_holders(admin, KEY) == []
        assert session.try_lock(KEY) is not None


def test_the_drivers_implicit_begin_opens_the_transaction(pg_url, session, admin):
    # A default connection with no statement run yet: no transaction is open
    # until the driver sends one, as for any other statement.
    with psycopg.connect(pg_url) as conn:
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        assert advlock.try_xact_lock(conn, "implicit_begin") is True
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS
        assert session.try_lock("implicit_begin") is None
        conn.commit()
        assert advisory_holders(admin, advlock.Key.from_name("implicit_begin")) == []
        advlock.xact_lock(conn, "implicit_begin", timeout=5)  # the waiting kind opens one too
        assert advisory_holders(admin, advlock.Key.from_name("implicit_begin")) == [conn.info.backend_pid]
        conn.rollback()
        assert advisory_holders(admin, advlock.Key.from_name("implicit_begin")) == []


def test_autocommit_connection_inside_a_transaction_block(pg_url, admin):
    with psycopg.connect(pg_url, autocommit=True) as conn:
        with conn.transaction():
            assert advlock.try_xact_lock(conn, KEY) is True
            advlock.xact_lock(conn, "second", timeout=5)
            assert len(advisory_holders(admin, KEY)) == 1
        assert advisory_holders(admin, KEY) == []


def test_psycopg_try_finds_it_held(pg_url, session):
    held = session.try_lock(KEY)
    with psycopg.connect(pg_url) as conn:
        with conn.transaction():
            assert advlock.try_xact_lock(conn, KEY) is False
            assert advlock.try_xact_lock(conn, KEY, shared=True) is False
            with pytest.raises(advlock.NotAcquired, match="timeout=0"):
                advlock.xact_lock(conn, KEY, timeout=0)
    held.release()


def test_timed_wait_keeps_the_transaction_usable(pg_url, session):
    held = session.try_lock("xact_waited")
    with psycopg.connect(pg_url) as conn:
        conn.execute("SET LOCAL lock_timeout = '7s'")
        with pytest.raises(advlock.NotAcquired, match="still usable") as raised:
            advlock.xact_lock(conn, "xact_waited", timeout=0.1)
        assert "'xact_waited' (key " in str(raised.value)
        assert lock_timeout(conn) == "7s"
        held.release()
        advlock.xact_lock(conn, "xact_waited", timeout=30)
        assert lock_timeout(conn) == "7s"  # the wait's own lock_timeout is gone with its savepoint
        assert session.try_lock("xact_waited") is None
        conn.commit()
    assert session.try_lock("xact_waited") is not None


def test_wait_without_timeout_is_granted_when_the_holder_lets_go(pg_url, session, admin):
    held = session.try_lock(KEY)
    with psycopg.connect(pg_url) as conn:
        pid = conn.info.backend_pid
        done = []
        waiter = threading.Thread(target=lambda: done.append(advlock.xact_lock(conn, KEY, shared=True)))
        waiter.start()
        wait_until(lambda: has_waiter(session, KEY), "the transaction's wait")
        # The wait is the core's own step, sent through the user's cursor.
        waiting = admin.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone()[0]
        assert waiting == advlock._advlock.xact_wait_sql("lock", KEY, True, advlock._advlock.WAIT_FOREVER)
        held.release()
        waiter.join(60)
        assert done == [None]
        assert advisory_holders(admin, KEY) == [conn.info.backend_pid]


def test_statement_timeout_ending_the_wait_is_canceled(pg_url, session):
    held = session.try_lock(KEY)
    with psycopg.connect(pg_url) as conn:
        conn.execute("SET LOCAL statement_timeout = '100ms'")
        with pytest.raises(advlock.Canceled) as raised:
            advlock.xact_lock(conn, KEY)
        assert raised.value.sqlstate == "57014"
        assert isinstance(raised.value.__cause__, psycopg.errors.QueryCanceled)
        assert conn.execute("SELECT 1").fetchone() == (1,)  # the transaction goes on
    held.release()


def test_deadlock_raises_deadlock_and_the_transaction_goes_on(pg_url, admin):
    first, second = advlock.Key(501, 1), advlock.Key(501, 2)
    with psycopg.connect(pg_url) as a, psycopg.connect(pg_url) as b:
        assert advlock.try_xact_lock(a, first) and advlock.try_xact_lock(b, second)
        outcomes = {}

        def wait(name, conn, key):
            try:
                advlock.xact_lock(conn, key, timeout=60)
                outcomes[name] = "acquired"
            except advlock.Deadlock as error:
                outcomes[name] = error
                assert conn.execute("SELECT 1").fetchone() == (1,)
                conn.rollback()  # lets the other one through

        threads = [threading.Thread(target=wait, args=("a", a, second)),
                   threading.Thread(target=wait, args=("b", b, first))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert sorted(type(o).__name__ if not isinstance(o, str) else o for o in outcomes.values()) == \
            ["Deadlock", "acquired"]
        error = next(o for o in outcomes.values() if isinstance(o, advlock.Deadlock))
        assert error.sqlstate == "40P01" and "501:" in str(error)


@pytest.mark.parametrize("sqlstate, cls", [
    ("55P03", advlock.NotAcquired), ("40P01", advlock.Deadlock), ("42501", advlock.PermissionDenied),
    ("57014", advlock.Canceled), ("53200", advlock.CapacityError), ("08006", advlock.ConnectError),
    ("22012", advlock.ServerError), (None, advlock.ServerError)])
def test_a_driver_errors_sqlstate_means_what_it_means_to_the_core(sqlstate, cls):
    # xact.py's mapping: the core's status of the SQLSTATE, then the class of that status.
    assert advlock.errors.class_for_status(advlock._advlock.status_from_sqlstate(sqlstate)) is cls


def test_server_errors_keep_their_sqlstate(pg_url, admin):
    admin.execute("DROP ROLE IF EXISTS advlock_no_locks")
    admin.execute("CREATE ROLE advlock_no_locks LOGIN PASSWORD 'pw'")
    try:
        with psycopg.connect(pg_url) as conn:
            conn.execute("SET ROLE advlock_no_locks")
            conn.execute("SELECT 1")
            admin.execute("REVOKE EXECUTE ON FUNCTION pg_try_advisory_xact_lock(int, int) FROM PUBLIC")
            try:
                with pytest.raises(advlock.PermissionDenied) as raised:
                    advlock.try_xact_lock(conn, KEY)
            finally:
                admin.execute("GRANT EXECUTE ON FUNCTION pg_try_advisory_xact_lock(int, int) TO PUBLIC")
            assert raised.value.sqlstate == "42501"
    finally:
        admin.execute("DROP ROLE advlock_no_locks")


@pytest.mark.host_libpq  # psycopg2 is built on the host's libpq
@pytest.mark.parametrize("end", ["commit", "rollback"])
def test_psycopg2_lock_ends_with_the_transaction(pg_url, session, admin, end):
    psycopg2 = pytest.importorskip("psycopg2")
    conn = psycopg2.connect(pg_url)
    try:
        key = advlock.Key.from_name("psycopg2_job")
        # No statement yet: psycopg2's implicit BEGIN opens the transaction.
        assert advlock.try_xact_lock(conn, "psycopg2_job") is True
        cur = conn.cursor()
        cur.execute("SELECT pg_backend_pid()")
        assert advisory_holders(admin, key) == [cur.fetchone()[0]]
        assert session.try_lock(key) is None
        conn.commit() if end == "commit" else conn.rollback()
        assert advisory_holders(admin, key) == []
        held = session.try_lock(key)
        with pytest.raises(advlock.NotAcquired, match="'psycopg2_job' \\(key "):
            advlock.xact_lock(conn, "psycopg2_job", timeout=0.1)
        assert conn.get_transaction_status() == psycopg2.extensions.TRANSACTION_STATUS_INTRANS
        held.release()
    finally:
        conn.close()


def test_outside_a_transaction_is_misuse(pg_url):
    with psycopg.connect(pg_url, autocommit=True) as conn:
        with pytest.raises(advlock.Misuse, match="autocommit"):
            advlock.try_xact_lock(conn, KEY)
        with pytest.raises(advlock.Misuse, match="autocommit"):
            advlock.xact_lock(conn, KEY, timeout=1)


def test_failed_transaction_is_misuse(pg_url):
    with psycopg.connect(pg_url) as conn:
        with pytest.raises(psycopg.errors.DivisionByZero):
            conn.execute("SELECT 1 / 0")
        with pytest.raises(advlock.Misuse, match="roll it back"):
            advlock.try_xact_lock(conn, KEY)


def test_not_a_driver_connection():
    with pytest.raises(TypeError, match="psycopg"):
        advlock.try_xact_lock(object(), KEY)


def test_async_connection_is_refused_with_the_way_out(pg_url):
    import asyncio

    async def attempt():
        conn = await psycopg.AsyncConnection.connect(pg_url)
        try:
            with pytest.raises(TypeError, match="AsyncConnection"):
                advlock.try_xact_lock(conn, KEY)
        finally:
            await conn.close()

    asyncio.run(attempt())


def test_closed_driver_connection(pg_url):
    conn = psycopg.connect(pg_url)
    conn.close()
    with pytest.raises(advlock.Misuse, match="closed"):
        advlock.try_xact_lock(conn, KEY)


def test_bad_timeout_is_refused_before_any_statement(pg_url):
    with psycopg.connect(pg_url) as conn:
        with pytest.raises(advlock.InvalidArgument, match="timeout"):
            advlock.xact_lock(conn, KEY, timeout=-1)
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE


def test_inside_a_psycopg_pipeline(pg_url, session):
    held = session.try_lock("in_pipeline")
    with psycopg.connect(pg_url) as conn:
        with conn.pipeline():
            conn.execute("SET LOCAL lock_timeout = '7s'")  # queued, not yet sent
            assert advlock.try_xact_lock(conn, "pipeline_try") is True
            assert session.try_lock("pipeline_try") is None
            with pytest.raises(advlock.NotAcquired):
                advlock.xact_lock(conn, "in_pipeline", timeout=0.1)
            assert conn.execute("SELECT current_setting('lock_timeout')").fetchone() == ("7s",)
            held.release()
            advlock.xact_lock(conn, "in_pipeline", timeout=30)
            assert session.try_lock("in_pipeline") is None
