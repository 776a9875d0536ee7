"""The .pyi stubs describe the native module as it really is (mypy's stubtest)."""
import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).parent


def test_stubs_match_the_native_module(tmp_path):
    pytest.importorskip("mypy")
    result = subprocess.run([sys.executable, "-m", "mypy.stubtest", "advlock._advlock",
                             "--allowlist", str(HERE / "stubtest-allowlist.txt")],
                            cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("name", ["skip_if_running.py", "skip_if_running_decorator.py"])
def test_example_type_checks(tmp_path, name):
    pytest.importorskip("mypy")
    example = HERE.parents[2] / "examples/python" / name
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(example)],
                            cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
