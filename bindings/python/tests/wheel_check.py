"""Checks the repaired wheel carries the client libraries it needs:
scripts/test-python.sh runs this under scripts/without-host-client-libs.sh
(where the host's libpq and MariaDB client cannot be loaded) and, with
--expect-host-libs, outside it, to show the probe below can fail.

    python wheel_check.py [--expect-host-libs] PG_URL MYSQL_URL
"""
import ctypes
import pathlib
import sys

HOST_LIBS = ("libpq.so.5", "libmariadb.so.3")


def host_lib_loads(soname: str) -> bool:
    try:
        ctypes.CDLL(soname)
    except OSError as e:
        print(f"{soname} cannot be loaded: {e}")
        return False
    return True


def main(argv: list) -> int:
    expect_host = argv[:1] == ["--expect-host-libs"]
    pg_url, mysql_url = argv[1:] if expect_host else argv
    if expect_host:
        missing = [s for s in HOST_LIBS if not host_lib_loads(s)]
        if missing:
            print(f"FAIL: the host should have {missing} here; the hidden check would prove nothing")
            return 1
        print(f"ok: the host's {', '.join(HOST_LIBS)} load outside the hiding")
        return 0
    # Before advlock is imported: nothing of ours is in the process yet.
    still = [s for s in HOST_LIBS if host_lib_loads(s)]
    if still:
        print(f"FAIL: {still} still load: the host's libraries are not hidden")
        return 1

    import advlock
    for url in (pg_url, mysql_url):
        with advlock.connect(url, application_name="wheel-check") as session:
            lock = session.try_lock("wheel_check")
            assert lock is not None, url.split(":")[0]
            lock.release()
    carried = pathlib.Path(advlock.__file__).resolve().parent.parent / "advlock.libs"
    loaded = sorted({line.split()[-1] for line in pathlib.Path("/proc/self/maps").read_text().splitlines()
                     if ("libpq" in line or "libmariadb" in line) and "/" in line})
    outside = [p for p in loaded if pathlib.Path(p).parent != carried]
    if len(loaded) < 2 or outside:
        print(f"FAIL: client libraries loaded {loaded}; expected libpq and libmariadb from {carried}")
        return 1
    print(f"ok: advlock {advlock.__version__} locked on PostgreSQL and MariaDB with {[pathlib.Path(p).name for p in loaded]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
