"""try_xact_lock / xact_lock behave the same with each psycopg implementation:
pure Python and C (both on the system's libpq) and binary (a wheel with a
libpq of its own, which advlock's libpq must never touch). psycopg picks its
implementation once per process, so each runs in a child process."""
import os
import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).parent


def implementation_available(impl: str) -> bool:
    probe = subprocess.run([sys.executable, "-c", "import psycopg"], env=dict(os.environ, PSYCOPG_IMPL=impl),
                           capture_output=True, text=True)
    return probe.returncode == 0


# python and c load the host's libpq; binary carries its own.
@pytest.mark.parametrize("impl", [pytest.param("python", marks=pytest.mark.host_libpq),
                                  pytest.param("c", marks=pytest.mark.host_libpq), "binary"])
def test_same_behaviour_with_each_implementation(pg_url, impl):
    if not implementation_available(impl):
        pytest.skip(f"psycopg's {impl} implementation is not installed (pip install 'psycopg[{impl}]')")
    result = subprocess.run([sys.executable, str(HERE / "xact_driver_check.py"), pg_url],
                            env=dict(os.environ, PSYCOPG_IMPL=impl), capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith(f"ok {impl}")
    if impl == "binary":
        # The case this guards: two libpq libraries in one process.
        assert "libpq files: 2" in result.stdout, result.stdout
