"""Fixtures for the Python binding's tests: a real PostgreSQL (never a mock).

scripts/test-python.sh runs pytest under scripts/with-postgres.sh, which sets
ADVLOCK_TEST_PG_URL; run by hand without it, a throwaway server is started
here with scripts/pg-start.sh and stopped at the end, even when tests fail.
"""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import tempfile
from typing import Iterator, List

import psycopg
import pytest

import advlock

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    url = os.environ.get("ADVLOCK_TEST_PG_URL")
    if url:
        yield url
        return
    state = tempfile.mkdtemp(prefix="advlock-pytest-pg.")
    try:
        subprocess.run([str(REPO / "scripts/pg-start.sh"), state], check=True, stdout=sys.stderr)
        yield (pathlib.Path(state) / "url").read_text().strip()
    finally:
        subprocess.run([str(REPO / "scripts/pg-stop.sh"), state], check=False)


@pytest.fixture
def admin(pg_url: str) -> Iterator[psycopg.Connection]:
    """A plain driver connection for looking at and disturbing the server."""
    with psycopg.connect(pg_url, autocommit=True) as conn:
        yield conn


@pytest.fixture
def session(pg_url: str) -> Iterator[advlock.Session]:
    with advlock.connect(pg_url, application_name="pytest") as s:
        yield s


@pytest.fixture(scope="session")
def key_vectors() -> dict:
    return json.loads((REPO / "tests/data/key-vectors.json").read_text(encoding="utf-8"))


def advisory_holders(admin: psycopg.Connection, key: advlock.Key) -> List[int]:
    """Backend pids holding key, straight from pg_locks."""
    classid, objid, objsubid = key.to_pg_locks()
    rows = admin.execute(
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
        " AND classid = %s AND objid = %s AND objsubid = %s",
        (classid, objid, objsubid)).fetchall()
    return sorted(r[0] for r in rows)


def python_child(code: str, *args: str) -> subprocess.Popen:
    """A separate Python process running code (a real second client)."""
    return subprocess.Popen([sys.executable, "-c", code, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_until(predicate, what: str, limit: float = 60.0) -> None:
    """Poll until predicate() holds; fail (not hang) if it never does. Not a
    timing assertion: the limit only turns a hang into a readable failure."""
    import time

    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what} after {limit} s")
        time.sleep(0.01)


def has_waiter(session, key) -> bool:
    return any(not h.granted for h in session.holders(key))
