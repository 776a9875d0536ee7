"""MySQL/MariaDB: the same binding, only the URL differs. Runs against the real
server scripts/with-mariadb.sh starts (ADVLOCK_TEST_MYSQL_URL); skipped, with
the reason, when that variable is unset.

The server is looked at and disturbed from a plain admin connection: the
mariadb command-line client, as root on the server's Unix socket
(ADVLOCK_TEST_MYSQL_STATE/socket), else with the URL's own credentials.
"""
from __future__ import annotations

import contextlib
import os
import pathlib
import subprocess
import threading
import urllib.parse
from typing import Iterator, List

import pytest

import advlock
from conftest import wait_until

UNIQUE = f"py{os.getpid()}"


@pytest.fixture(scope="module")
def mysql_url() -> str:
    url = os.environ.get("ADVLOCK_TEST_MYSQL_URL")
    if not url:
        pytest.skip("ADVLOCK_TEST_MYSQL_URL is not set (scripts/test-python.sh runs these under "
                    "scripts/with-mariadb.sh)")
    return url


def admin_command(url: str) -> List[str]:
    state = os.environ.get("ADVLOCK_TEST_MYSQL_STATE")
    if state:
        socket = (pathlib.Path(state) / "socket").read_text().strip()
        return ["mariadb", "--no-defaults", "-uroot", "-S", socket]
    parts = urllib.parse.urlsplit(url)
    return ["mariadb", "--no-defaults", "--protocol=TCP", "-h", parts.hostname or "127.0.0.1",
            "-P", str(parts.port or 3306), "-u", urllib.parse.unquote(parts.username or ""),
            "-p" + urllib.parse.unquote(parts.password or "")]


def admin(url: str, sql: str) -> str:
    """One statement through the mariadb client; its single value as text."""
    result = subprocess.run(admin_command(url) + ["-Nse", sql], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def holder_of(url: str, name: str) -> str:
    """IS_USED_LOCK(name): the connection id holding it, or "NULL"."""
    return admin(url, "SELECT IS_USED_LOCK('" + name.replace("'", "''") + "')")


@pytest.fixture
def session(mysql_url: str) -> Iterator[advlock.Session]:
    with advlock.connect(mysql_url, application_name="pytest-mysql") as s:
        yield s


def test_a_name_is_held_under_that_exact_name(mysql_url, session, tmp_path):
    name = f"daily_sales_{UNIQUE}"
    lock = session.try_lock(name)
    assert lock is not None and lock.held
    assert holder_of(mysql_url, name) == str(session.server_id)
    lock.release()
    assert holder_of(mysql_url, name) == "NULL"
    # Every way of naming a lock reaches the server as the name.
    registry_path = tmp_path / "registry.toml"
    registry_path.write_text(f'[locks.report_{UNIQUE}]\ndescription = "no key of its own"\n')
    with advlock.connect(mysql_url, registry=str(registry_path)) as named:
        for key in (advlock.Key.from_name(name), advlock.Key.parse("name:" + name), f"report_{UNIQUE}"):
            with named.lock(key, timeout=0) as held:
                expected = name if isinstance(key, advlock.Key) else f"report_{UNIQUE}"
                assert holder_of(mysql_url, expected) == str(named.server_id), key
                assert held.key.name == expected


def test_a_second_session_cannot_take_it_until_released(mysql_url, session):
    name = f"exclusive_{UNIQUE}"
    lock = session.try_lock(name)
    assert lock is not None
    with advlock.connect(mysql_url) as other:
        assert other.try_lock(name) is None
        with pytest.raises(advlock.NotAcquired):
            other.lock(name, timeout=0.2)
        lock.release()
        again = other.try_lock(name)
        assert again is not None
        assert holder_of(mysql_url, name) == str(other.server_id)
        again.release()


def test_holders_show_the_holder_and_say_what_the_server_cannot_show(mysql_url, session):
    name = f"listed_{UNIQUE}"
    with advlock.connect(mysql_url) as asker, session.lock(name, timeout=0):
        holders = asker.holders(name)
        assert [h.server_id for h in holders] == [session.server_id]
        [row] = holders
        assert row.granted and not row.is_self
        assert row.name == name and row.key.name == name
        # MariaDB's metadata_lock_info lists holders, never waiters: the note says so.
        assert "waiting" in holders.note
        # A holder's key names the same lock: taking it from another session fails.
        assert asker.try_lock(row.key) is None


def test_keys_are_held_as_advlock_key_text(mysql_url, session):
    k2 = os.getpid()
    with session.lock(advlock.Key(100, k2), timeout=0):
        assert holder_of(mysql_url, f"advlock:100:{k2}") == str(session.server_id)
    with session.lock(advlock.Key(-k2), timeout=0):
        assert holder_of(mysql_url, f"advlock:-{k2}") == str(session.server_id)


def test_names_hold_at_most_64_characters(mysql_url, session):
    prefix = f"long_{UNIQUE}_"
    with pytest.raises(advlock.BadKey, match="at most 64") as raised:
        session.try_lock(prefix + "x" * (65 - len(prefix)))
    assert raised.value.status_name == "ADVLOCK_EKEY"
    longest = prefix + "x" * (64 - len(prefix))
    with session.lock(longest, timeout=0):
        assert holder_of(mysql_url, longest) == str(session.server_id)


def test_scope_prefixes_names(mysql_url):
    separator = "&" if "?" in mysql_url else "?"
    with advlock.connect(f"{mysql_url}{separator}scope=billing") as scoped:
        with scoped.lock(f"daily_sales_{UNIQUE}", timeout=0):
            assert holder_of(mysql_url, f"billing:daily_sales_{UNIQUE}") == str(scoped.server_id)


def test_shared_mode_is_unsupported(session):
    with pytest.raises(advlock.Unsupported) as raised:
        session.try_lock(f"shared_{UNIQUE}", shared=True)
    assert raised.value.status_name == "ADVLOCK_EUNSUPPORTED"


def test_kill_connection_means_lock_lost_and_callback(mysql_url):
    reasons: List[str] = []
    fired = threading.Event()

    def on_lost(why: str) -> None:
        reasons.append(why)
        fired.set()

    session = advlock.connect(mysql_url, on_lost=on_lost)
    name = f"doomed_{UNIQUE}"
    lock = session.try_lock(name)
    assert lock is not None and not session.lost
    admin(mysql_url, f"KILL CONNECTION {session.server_id}")
    wait_until(fired.is_set, "the lost callback", limit=120)
    assert len(reasons) == 1, reasons
    assert session.lost and not lock.held
    with pytest.raises(advlock.LockLost):
        lock.ensure_held()
    with pytest.raises(advlock.LockLost):
        session.check()
    with pytest.raises(advlock.LockLost) as raised:
        lock.release()
    assert raised.value.status_name == "ADVLOCK_ELOST"
    session.close()
    assert len(reasons) == 1
    wait_until(lambda: holder_of(mysql_url, name) == "NULL", "the server to free the lock", limit=120)


def waits_in_get_lock(url: str, connection_id: int) -> bool:
    """The connection is inside GET_LOCK, waiting (a slot wait waits on one slot at a time)."""
    return admin(url, f"SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = {connection_id} "
                      "AND STATE = 'User lock'") == "1"


def test_slots_hold_any_one_free_slot_of_n(mysql_url):
    name = f"exports_{UNIQUE}"
    key = advlock.Key.from_name(name)
    with contextlib.ExitStack() as stack:
        sessions = [stack.enter_context(advlock.connect(mysql_url)) for _ in range(4)]
        locks = [s.try_lock(name, slots=3) for s in sessions[:3]]
        assert all(lock is not None for lock in locks)
        assert sorted(lock.slot for lock in locks) == [1, 2, 3]
        for s, lock in zip(sessions, locks):
            # A slot is the key-only lock of the slot's key, whatever the name.
            assert lock.server_key == key.slot(lock.slot)
            assert holder_of(mysql_url, f"advlock:{lock.server_key}") == str(s.server_id)
        assert holder_of(mysql_url, name) == "NULL"

        fourth = sessions[3]
        assert fourth.try_lock(name, slots=3) is None
        got = []
        waiter = threading.Thread(target=lambda: got.append(fourth.lock(name, slots=3, timeout=60)))
        waiter.start()
        try:
            wait_until(lambda: waits_in_get_lock(mysql_url, fourth.server_id), "the fourth holder to wait")
            next(lock for lock in locks if lock.slot == 3).release()
        finally:
            waiter.join(120)
        assert got and got[0].slot == 3
        assert holder_of(mysql_url, f"advlock:{key.slot(3)}") == str(fourth.server_id)


def test_fencing_is_unsupported(session):
    with pytest.raises(advlock.Unsupported) as raised:
        session.try_lock(f"fenced_{UNIQUE}", fence=True)
    assert raised.value.status_name == "ADVLOCK_EUNSUPPORTED"
