"""@advlock.skip_if_running: runs when free, skips (returns on_skip()) when held."""
import logging

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
        assert nightly_report("tue") is None
    assert calls == ["mon"]
    assert "skipped" in caplog.text and f"pid {session.backend_pid} (pytest)" in caplog.text
    held.release()


def test_on_skip_value(pg_url, session):
    @advlock.skip_if_running(advlock.Key(600, 1), url=pg_url, on_skip=lambda: "skipped")
    def job():
        return "ran"

    held = session.try_lock(advlock.Key(600, 1))
    assert job() == "skipped"
    held.release()
    assert job() == "ran"
