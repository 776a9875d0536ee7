"""Fencing tokens on PostgreSQL: fence=True issues a token with each grant;
advlock.fence_check runs in the job's own transaction, on its own driver
connection, and fails with FencedOut once a newer holder took the lock."""
from typing import Iterator

import psycopg
import pytest

import advlock


@pytest.fixture(scope="module")
def fence_table(pg_url: str) -> Iterator[None]:
    """The fence table and functions in the test database, from advlock's own DDL (idempotent)."""
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(advlock.fence_sql())
        conn.execute(advlock.fence_sql())  # a second run changes nothing and fails nothing
    yield


@pytest.fixture
def job_conn(pg_url: str, fence_table) -> Iterator[psycopg.Connection]:
    """The job's own data connection (not the lock session), in psycopg's default transaction mode."""
    with psycopg.connect(pg_url) as conn:
        yield conn


def test_tokens_increase_with_every_grant(pg_url, session, fence_table):
    first = session.try_lock("py_fenced_counter", fence=True)
    assert first is not None and first.fenced
    assert f"fence token {first.fence_token}" in repr(first)
    token = first.fence_token
    first.release()
    assert first.fence_token == token  # still readable after release
    with advlock.connect(pg_url) as other:
        second = other.lock("py_fenced_counter", fence=True, timeout=30)
        assert second.fence_token > first.fence_token
        second.release()
    third = session.try_lock("py_fenced_counter", fence=True)
    assert third.fence_token > second.fence_token
    third.release()


def test_check_passes_for_the_latest_token_and_fences_out_an_older_one(pg_url, session, job_conn):
    old = session.try_lock("py_fenced_job", fence=True)
    with job_conn.transaction():
        advlock.fence_check(job_conn, old)
    old.release()
    with advlock.connect(pg_url) as other:
        new = other.try_lock("py_fenced_job", fence=True)
        assert new is not None and new.fence_token > old.fence_token
        with pytest.raises(advlock.FencedOut, match="py_fenced_job") as raised:
            with job_conn.transaction():
                advlock.fence_check(job_conn, old)
        assert isinstance(raised.value, advlock.LockLost)
        assert raised.value.sqlstate == "55T01" and raised.value.status_name == "ADVLOCK_EFENCED"
        # The new holder's token passes, as a Lock or as its key and token (what `advlock run` passes on).
        with job_conn.transaction():
            advlock.fence_check(job_conn, new)
            new.fence_check(job_conn)
            advlock.fence_check(job_conn, "py_fenced_job", new.fence_token)
        with pytest.raises(advlock.FencedOut):
            with job_conn.transaction():
                old.fence_check(job_conn)
        with pytest.raises(advlock.FencedOut):
            with job_conn.transaction():
                advlock.fence_check(job_conn, advlock.Key.from_name("py_fenced_job"), old.fence_token)
        new.release()


def test_an_open_checked_transaction_holds_off_the_next_holder(pg_url, session, job_conn):
    """The check's row lock lasts until the job commits: only then can a newer token be issued."""
    lock = session.try_lock("py_fenced_handoff", fence=True)
    advlock.fence_check(job_conn, lock)  # psycopg's implicit BEGIN opened the transaction
    lock.release()
    with advlock.connect(pg_url) as other:
        assert other.try_lock("py_fenced_handoff", fence=True) is None
        job_conn.commit()
        nxt = other.try_lock("py_fenced_handoff", fence=True)
        assert nxt is not None and nxt.fence_token > lock.fence_token
        nxt.release()


def test_a_slot_lock_is_checked_by_its_slot_key(session, job_conn):
    lock = session.try_lock("py_fenced_slots", slots=2, fence=True)
    assert lock.slot in (1, 2) and lock.server_key == advlock.Key.from_name("py_fenced_slots").slot(lock.slot)
    with job_conn.transaction():
        advlock.fence_check(job_conn, lock)
        advlock.fence_check(job_conn, lock.server_key, lock.fence_token)
    lock.release()


def test_check_outside_a_transaction_is_misuse(pg_url, session, fence_table):
    lock = session.try_lock("py_fenced_autocommit", fence=True)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        with pytest.raises(advlock.Misuse, match="autocommit"):
            advlock.fence_check(conn, lock)
        with conn.transaction():  # an explicit block is a transaction, autocommit or not
            advlock.fence_check(conn, lock)
    lock.release()


def test_check_in_a_failed_transaction_is_misuse(session, job_conn):
    lock = session.try_lock("py_fenced_failed", fence=True)
    with pytest.raises(psycopg.errors.DivisionByZero):
        job_conn.execute("SELECT 1/0")
    with pytest.raises(advlock.Misuse, match="already failed"):
        advlock.fence_check(job_conn, lock)
    job_conn.rollback()
    lock.release()


def test_a_lock_taken_without_fence_has_no_token(session, job_conn):
    lock = session.try_lock("py_unfenced")
    with pytest.raises(advlock.Misuse, match="fence=True"):
        lock.fence_token
    with pytest.raises(advlock.Misuse):
        advlock.fence_check(job_conn, lock)
    with pytest.raises(TypeError, match="token"):
        advlock.fence_check(job_conn, "py_unfenced")
    lock.release()


def test_a_missing_fence_function_says_how_to_create_it(session, job_conn):
    lock = session.try_lock("py_fenced_missing", fence=True)
    with pytest.raises(advlock.ServerError, match="fence_sql") as raised:
        with job_conn.transaction():
            job_conn.execute("DROP FUNCTION public.advlock_fence_check")  # undone by the rollback
            advlock.fence_check(job_conn, lock)
    assert raised.value.sqlstate == "42883"
    with job_conn.transaction():
        advlock.fence_check(job_conn, lock)  # the rollback put it back
    lock.release()


def test_any_dbapi_connection_with_a_cursor_works(pg_url, session, job_conn):
    """A driver advlock knows nothing of: only cursor().execute(), and errors carrying .sqlstate."""
    class BareConnection:
        def __init__(self, conn):
            self._conn = conn

        def cursor(self):
            return self._conn.cursor()

    lock = session.try_lock("py_fenced_bare", fence=True)
    advlock.fence_check(BareConnection(job_conn), lock)
    job_conn.commit()
    lock.release()
    with advlock.connect(pg_url) as other:
        newer = other.try_lock("py_fenced_bare", fence=True)
        with pytest.raises(advlock.FencedOut):
            advlock.fence_check(BareConnection(job_conn), lock)
        job_conn.rollback()
        newer.release()


@pytest.mark.host_libpq  # psycopg2 is built on the host's libpq
def test_psycopg2_check(pg_url, session, fence_table):
    psycopg2 = pytest.importorskip("psycopg2")
    conn = psycopg2.connect(pg_url)
    try:
        lock = session.try_lock("py_fenced_psycopg2", fence=True)
        advlock.fence_check(conn, lock)  # psycopg2's implicit BEGIN opens the transaction
        conn.commit()
        lock.release()
        with advlock.connect(pg_url) as other:
            newer = other.try_lock("py_fenced_psycopg2", fence=True)
            with pytest.raises(advlock.FencedOut) as raised:
                advlock.fence_check(conn, lock)
            assert raised.value.sqlstate == "55T01"
            conn.rollback()
            conn.autocommit = True
            with pytest.raises(advlock.Misuse, match="autocommit"):
                advlock.fence_check(conn, newer)
            newer.release()
    finally:
        conn.close()


def test_fence_is_for_postgresql_only(tmp_path, session):
    with advlock.connect(f"local:{tmp_path}") as local:
        with pytest.raises(advlock.Unsupported):
            local.try_lock("py_fenced_local", fence=True)
    # Not reentrant: a second acquisition would fence out the first.
    with pytest.raises(advlock.InvalidArgument):
        session.try_lock("py_fenced_reentrant", fence=True, reentrant=True)
