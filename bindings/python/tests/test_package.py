"""The package as installed: version, typing files, the exception hierarchy."""
import pathlib
import re

import advlock
from conftest import REPO


def test_version_matches_the_c_library():
    header = (REPO / "capi/include/advlock/version.h").read_text()
    parts = [re.search(rf"#define ADVLOCK_VERSION_{p} (\d+)", header).group(1) for p in ("MAJOR", "MINOR", "PATCH")]
    assert advlock.version() == ".".join(parts) == advlock.__version__


def test_typing_files_are_installed():
    package = pathlib.Path(advlock.__file__).parent
    assert (package / "py.typed").exists()
    assert (package / "_advlock.pyi").exists()


def test_hierarchy():
    assert issubclass(advlock.StandbyTarget, advlock.UnsafeTarget)
    assert issubclass(advlock.PoolerTarget, advlock.UnsafeTarget)
    assert issubclass(advlock.ClusterTarget, advlock.UnsafeTarget)
    assert issubclass(advlock.UnsafeLockDirectory, advlock.UnsafeTarget)
    assert issubclass(advlock.FencedOut, advlock.LockLost)  # a kind of loss: `except LockLost` catches it
    for cls in (advlock.NotAcquired, advlock.LockLost, advlock.UnsafeTarget, advlock.ConnectError,
                advlock.CapacityError, advlock.Deadlock, advlock.PermissionDenied):
        assert issubclass(cls, advlock.Error)
    assert not issubclass(advlock.LockLost, advlock.NotAcquired)


def test_every_status_of_the_library_has_its_class():
    """Each row of the library's status table has the class its Kind column
    names, deriving from its parent's class, and the status maps back to it."""
    from advlock.errors import STATUS_TABLE, class_for_status
    parents = {"error": advlock.Error, "unsafe_target": advlock.UnsafeTarget, "lock_lost": advlock.LockLost,
               "none": advlock.Error}
    without_class = []
    for row in STATUS_TABLE:
        assert advlock._advlock.status_name(row.status) == row.name
        cls = getattr(advlock, row.class_name, None)
        if cls is None:
            without_class.append(row.name)
            continue
        assert cls.__bases__[0] is parents[row.parent], row
        assert cls.default_status == row.status and class_for_status(row.status) is cls, row
        assert row.class_name in advlock.__all__ and getattr(advlock.errors, row.class_name) is cls
        assert cls("x").status_name == row.name
    assert without_class == ["ADVLOCK_OK"]  # success raises nothing; NOT_ACQUIRED is NotAcquired
    assert len(STATUS_TABLE) == len({row.status for row in STATUS_TABLE}) > 20
    assert class_for_status(12345) is advlock.Error
