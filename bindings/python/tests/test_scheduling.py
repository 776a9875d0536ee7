"""@advlock.skip_if_running: runs when free; when held, skips and tells the
caller so (advlock.SKIPPED, on_skip()'s value, or exit_code). The exit code
as cron sees it is checked with real processes in test_example.py."""
import logging
import pickle

import pytest

import advlock


def test_runs_when_free_and_skips_when_held(pg_url, session, caplog):
    calls = []

    @advlock.skip_if_running("nightly_report", url=pg_url, application_name="scheduler")
    def nightly_report(day):
        calls.append(day)
        assert session.try_lock("nightly_report") is None  # held while it runs
        return f"done {day}"

    assert nightly_report("mon") == "done mon"
    assert nightly_report.__name__ == "nightly_report"
    held = session.try_lock("nightly_report")
    with caplog.at_level(logging.INFO, logger="advlock"):
        assert nightly_report("tue") is advlock.SKIPPED
    assert calls == ["mon"]
    assert "skipped" in caplog.text and f"pid {session.server_id} (pytest)" in caplog.text
    assert "lock 'nightly_report' (key " in caplog.text  # the name, not the bigint
    held.release()


def test_skipped_is_one_falsy_value(pg_url):
    assert not advlock.SKIPPED and repr(advlock.SKIPPED) == "advlock.SKIPPED"
    assert pickle.loads(pickle.dumps(advlock.SKIPPED)) is advlock.SKIPPED
    assert advlock.SKIPPED is not None and advlock.SKIPPED != 0 and advlock.SKIPPED != ""


def test_on_skip_value(pg_url, session):
    @advlock.skip_if_running(advlock.Key(600, 1), url=pg_url, on_skip=lambda: "skipped")
    def job():
        return "ran"

    held = session.try_lock(advlock.Key(600, 1))
    assert job() == "skipped"
    held.release()
    assert job() == "ran"


def test_exit_code_ends_the_program_on_a_skip_only(pg_url, session):
    notified = []

    @advlock.skip_if_running("exit_code_job", url=pg_url, exit_code=advlock.CONFLICT_EXIT_CODE,
                             on_skip=lambda: notified.append("skip"))
    def job():
        return "ran"

    assert job() == "ran"
    held = session.try_lock("exit_code_job")
    with pytest.raises(SystemExit) as raised:
        job()
    assert raised.value.code == 3 and notified == ["skip"]
    held.release()
    assert job() == "ran"  # the session the skip opened was closed: the lock is free again


@pytest.mark.parametrize("bad", [-1, 256, True, "3", 3.0])
def test_bad_exit_code_is_refused_when_decorating(bad):
    with pytest.raises(advlock.InvalidArgument, match="exit_code"):
        advlock.skip_if_running("x", exit_code=bad)


def test_slots_let_n_runs_at_once(pg_url, session, caplog):
    @advlock.skip_if_running("py_two_at_once", url=pg_url, slots=2)
    def job():
        return "ran"

    first = session.try_lock("py_two_at_once", slots=2)
    assert job() == "ran"  # one of the two slots is still free
    second = session.try_lock("py_two_at_once", slots=2)
    with caplog.at_level(logging.INFO, logger="advlock"):
        assert job() is advlock.SKIPPED
    assert "all 2 slots of lock 'py_two_at_once' (key " in caplog.text
    first.release()
    second.release()
