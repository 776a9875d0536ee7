"""Transaction-scoped locks on the user's own psycopg / psycopg2 connection:
held until COMMIT or ROLLBACK, in the user's transaction."""
import psycopg
import pytest

import advlock
from advlock import xact
from conftest import advisory_holders

KEY = advlock.Key(500, 1)


@pytest.fixture(params=["pointer", "driver-sql"])
def path(request, monkeypatch):
    """Both ways to run the statements: advlock's libpq on the driver's PGconn,
    and the core's SQL through the driver (as with a binary-wheel driver)."""
    if request.param == "driver-sql":
        monkeypatch.setattr(xact, "_shares_our_libpq", lambda: False)
    return request.param


def test_one_libpq_in_this_process():
    # The drivers here use the system libpq, so the pointer path is the real one.
    assert advlock._advlock.loaded_libpq_count() == 1


@pytest.mark.parametrize("end", ["commit", "rollback"])
def test_psycopg_lock_ends_with_the_transaction(pg_url, session, admin, path, end):
    with psycopg.connect(pg_url) as conn:
        with conn.transaction() as tx:
            assert advlock.try_xact_lock(conn, KEY) is True
            assert advisory_holders(admin, KEY) == [conn.info.backend_pid]
            assert session.try_lock(KEY) is None
            if end == "rollback":
                raise psycopg.Rollback(tx)
        assert advisory_holders(admin, KEY) == []
        assert session.try_lock(KEY) is not None


def test_psycopg_try_finds_it_held(pg_url, session, path):
    held = session.try_lock(KEY)
    with psycopg.connect(pg_url) as conn:
        with conn.transaction():
            assert advlock.try_xact_lock(conn, KEY) is False
            assert advlock.try_xact_lock(conn, KEY, shared=True) is False
    held.release()


def test_psycopg_timed_wait_keeps_the_transaction_usable(pg_url, session):
    held = session.try_lock(KEY)
    with psycopg.connect(pg_url) as conn:
        with conn.transaction():
            conn.execute("SET LOCAL lock_timeout = '7s'")
            with pytest.raises(advlock.NotAcquired, match="still usable"):
                advlock.xact_lock(conn, KEY, timeout=0.1)
            assert conn.execute("SELECT current_setting('lock_timeout')").fetchone()[0] == "7s"
            held.release()
            advlock.xact_lock(conn, KEY, timeout=30)
            assert session.try_lock(KEY) is None


@pytest.mark.parametrize("end", ["commit", "rollback"])
def test_psycopg2_lock_ends_with_the_transaction(pg_url, session, admin, path, end):
    import psycopg2
    conn = psycopg2.connect(pg_url)
    try:
        cur = conn.cursor()
        cur.execute("SELECT pg_backend_pid()")  # psycopg2 opens the transaction here
        pid = cur.fetchone()[0]
        assert advlock.try_xact_lock(conn, "psycopg2_job") is True
        assert advisory_holders(admin, advlock.Key.from_name("psycopg2_job")) == [pid]
        conn.commit() if end == "commit" else conn.rollback()
        assert advisory_holders(admin, advlock.Key.from_name("psycopg2_job")) == []
    finally:
        conn.close()


def test_outside_a_transaction_is_misuse(pg_url, path):
    with psycopg.connect(pg_url, autocommit=True) as conn:
        with pytest.raises(advlock.Misuse, match="transaction"):
            advlock.try_xact_lock(conn, KEY)


def test_not_a_driver_connection():
    with pytest.raises(TypeError, match="psycopg"):
        advlock.try_xact_lock(object(), KEY)


def test_closed_driver_connection(pg_url):
    conn = psycopg.connect(pg_url)
    conn.close()
    with pytest.raises(advlock.Misuse, match="closed"):
        advlock.try_xact_lock(conn, KEY)


def test_timed_wait_needs_the_shared_libpq(pg_url, monkeypatch):
    monkeypatch.setattr(xact, "_shares_our_libpq", lambda: False)
    with psycopg.connect(pg_url) as conn:
        with conn.transaction():
            with pytest.raises(advlock.Unsupported, match="binary"):
                advlock.xact_lock(conn, KEY, timeout=1)
