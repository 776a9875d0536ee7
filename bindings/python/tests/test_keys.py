"""Keys: the shared vectors, the text forms, registry lookups and bad input."""
import pickle

import pytest

import advlock


def test_name_vectors_in_every_scheme(key_vectors):
    assert len(key_vectors["names"]) >= 13
    for v in key_vectors["names"]:
        assert advlock.Key.from_name(v["name"]) == advlock.Key(v["advlock"]), v["name"]
        assert advlock.Key.from_name_compat(v["name"]) == advlock.Key(*v["with_advisory_lock"]), v["name"]
        assert advlock.Key.from_name_compat(v["name"], 42) == advlock.Key(*v["with_advisory_lock_prefix_42"])


def test_pg_locks_vectors(key_vectors):
    for v in key_vectors["pg_locks"]:
        key = advlock.Key(v["bigint"]) if "bigint" in v else advlock.Key(*v["pair"])
        assert key.to_pg_locks() == (v["classid"], v["objid"], v["objsubid"])
        assert advlock.Key.from_pg_locks(v["classid"], v["objid"], v["objsubid"]) == key


def test_text_forms_round_trip():
    assert str(advlock.Key(100, 1)) == "100:1"
    assert advlock.Key.parse("100:1") == advlock.Key(100, 1)
    assert advlock.Key.parse("-42") == advlock.Key(-42)
    assert advlock.Key.parse("name:daily_sales") == advlock.Key.from_name("daily_sales")
    key = advlock.Key(-9223372036854775808)
    assert advlock.Key.parse(str(key)) == key
    assert pickle.loads(pickle.dumps(advlock.Key(7, 8))) == advlock.Key(7, 8)


def test_keys_made_from_names_keep_the_name(tmp_path):
    # MySQL sessions lock the name itself, so every way of naming a lock keeps it.
    assert advlock.Key.from_name("daily_sales").name == "daily_sales"
    assert advlock.Key.parse("name:daily_sales").name == "daily_sales"
    assert advlock._advlock.to_key("daily_sales").name == "daily_sales"
    assert pickle.loads(pickle.dumps(advlock.Key.from_name("daily_sales"))).name == "daily_sales"
    assert advlock.Key(100, 1).name is None and advlock.Key.parse("7").name is None
    assert advlock.Key.from_name_compat("daily_sales").name is None
    registry = advlock.Registry.parse('[locks.weekly_report]\ndescription = "no key"\n[locks.pair]\nkey = [1, 2]\n')
    assert registry.key("weekly_report").name == "weekly_report"
    assert registry["weekly_report"].key.name == "weekly_report"
    assert advlock._advlock.to_key("weekly_report", registry).name == "weekly_report"
    assert registry.key("pair").name is None


def test_keys_are_values():
    assert advlock.Key(1, 2) != advlock.Key(2, 1)
    assert advlock.Key(5) != advlock.Key(0, 5)
    assert {advlock.Key(1, 2): "a"}[advlock.Key(1, 2)] == "a"
    assert advlock.Key(1, 2).pair == (1, 2) and advlock.Key(1, 2).bigint is None
    assert advlock.Key(9).bigint == 9 and not advlock.Key(9).is_pair
    assert repr(advlock.Key(3, 4)) == "Key(3, 4)"


@pytest.mark.parametrize("text", ["", "1:", ":1", "1:2:3", "abc", "+5", "1 :2", "99999999999:1",
                                  "9223372036854775808", "name:"])
def test_malformed_key_text_is_bad_key(text):
    with pytest.raises(advlock.BadKey) as raised:
        advlock.Key.parse(text)
    assert raised.value.status == -4 and raised.value.status_name == "ADVLOCK_EKEY"
    assert isinstance(raised.value, ValueError)


def test_bad_key_values():
    with pytest.raises(advlock.BadKey, match="int4"):
        advlock.Key(2**31, 1)
    with pytest.raises(advlock.BadKey, match="2\\^63"):
        advlock.Key(2**63)
    with pytest.raises(advlock.BadKey):
        advlock.Key.from_name("")
    with pytest.raises(advlock.BadKey):
        advlock.Key.from_name("x" * 1025)
    with pytest.raises(advlock.BadKey):
        advlock.Key.from_name("nul\0inside")
    with pytest.raises(TypeError, match="Key.from_name"):
        advlock.Key("daily_sales")
    with pytest.raises(TypeError):
        advlock.Key(True)


REGISTRY = """
[locks.daily_sales]
key = [100, 1]
description = "Nightly sales aggregation"

[locks.customer_sync]
key = 7001
"""


def test_registry_lookups(tmp_path):
    path = tmp_path / "registry.toml"
    path.write_text(REGISTRY)
    registry = advlock.Registry.open(str(path))
    assert len(registry) == 2
    assert registry.key("daily_sales") == advlock.Key(100, 1)
    assert registry["customer_sync"].key == advlock.Key(7001)
    assert registry["daily_sales"].description == "Nightly sales aggregation"
    assert "DAILY_SALES" in registry and "weekly" not in registry
    assert registry.find_key(advlock.Key(7001)).name == "customer_sync"
    assert registry.find_key(advlock.Key(1)) is None
    assert [e.name for e in registry] == ["daily_sales", "customer_sync"]
    with pytest.raises(advlock.NotFound, match="daily_sales") as raised:
        registry.key("daily_sale")  # the message suggests the closest name
    assert isinstance(raised.value, LookupError)


def test_registry_errors_name_file_and_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[locks.a]\nkey = [1, 2]\n[locks.b]\nkey = 1.5\n")
    with pytest.raises(advlock.RegistryError, match=r"bad\.toml:4"):
        advlock.Registry.open(str(path))
    with pytest.raises(advlock.FileError) as raised:
        advlock.Registry.open(str(tmp_path / "missing.toml"))
    assert isinstance(raised.value, OSError)


def test_sql_for_other_drivers():
    assert advlock.sql("try_xact_lock", advlock.Key(100, 1)) == "SELECT pg_catalog.pg_try_advisory_xact_lock(100, 1)"
    assert "sha256" in advlock.name_key_sql("daily_sales")
    with pytest.raises(advlock.InvalidArgument, match="known:"):
        advlock.sql("grab", advlock.Key(1))
