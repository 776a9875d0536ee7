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
    for cls in (advlock.NotAcquired, advlock.LockLost, advlock.UnsafeTarget, advlock.ConnectError,
                advlock.CapacityError, advlock.Deadlock, advlock.PermissionDenied):
        assert issubclass(cls, advlock.Error)
    assert not issubclass(advlock.LockLost, advlock.NotAcquired)


def test_every_status_has_its_class():
    from advlock.errors import class_for_status
    for status in range(-22, 2):
        if status == 0:
            continue
        cls = class_for_status(status)
        assert advlock._advlock.status_name(cls.default_status) == advlock._advlock.status_name(status) or status == -10
        assert cls is not advlock.Error
