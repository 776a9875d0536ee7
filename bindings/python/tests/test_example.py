"""examples/python/skip_if_running.py (and its @advlock.skip_if_running twin)
behave as the README says, checked by the same script as the C and C++
examples (hold, skip with 3, kill -9, run): real processes, as cron starts them."""
import os
import pathlib
import subprocess
import sys

import pytest

from conftest import REPO

# The check script asks the server with psql, which loads the host's libpq.
pytestmark = pytest.mark.host_libpq


@pytest.mark.parametrize("example", ["skip_if_running.py", "skip_if_running_decorator.py"])
def test_example_skips_while_held(pg_url, tmp_path, example):
    state = os.environ.get("ADVLOCK_TEST_PG_STATE")
    if not state:  # the check script reads the URL from a state directory
        state = str(tmp_path)
        (tmp_path / "url").write_text(pg_url + "\n")
    env = dict(os.environ, PATH=f"{pathlib.Path(sys.executable).parent}:{os.environ['PATH']}")
    result = subprocess.run([str(REPO / "tests/examples/check_skip_if_running.sh"),
                             str(REPO / "examples/python" / example), state],
                            env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "second skipped with exit 3" in result.stdout
