# frozen_string_literal: true

require_relative "test_helper"

class KeysTest < Minitest::Test
  include AdvlockTest

  def vectors = JSON.parse(File.read(File.join(REPO, "tests/data/key-vectors.json")))

  def test_name_vectors_in_every_scheme
    names = vectors["names"]
    assert_operator names.size, :>=, 13
    names.each do |v|
      assert_equal Advlock::Key.bigint(v["advlock"]), Advlock::Key.from_name(v["name"]), v["name"]
      assert_equal Advlock::Key.pair(*v["with_advisory_lock"]), Advlock::Key.from_name_compat(v["name"]), v["name"]
      assert_equal Advlock::Key.pair(*v["with_advisory_lock_prefix_42"]), Advlock::Key.from_name_compat(v["name"], 42)
    end
  end

  def test_compat_scheme_follows_the_gems_prefix_variable
    ENV["WITH_ADVISORY_LOCK_PREFIX"] = "42"
    v = vectors["names"].first
    assert_equal Advlock::Key.pair(*v["with_advisory_lock_prefix_42"]), Advlock::ActiveRecord.key_for(v["name"])
  ensure
    ENV.delete("WITH_ADVISORY_LOCK_PREFIX")
  end

  def test_text_forms_and_values
    assert_equal "100:1", Advlock::Key.pair(100, 1).to_s
    assert_equal Advlock::Key.pair(100, 1), Advlock::Key.parse("100:1")
    assert_equal Advlock::Key.bigint(-42), Advlock::Key.parse("-42")
    assert_equal Advlock::Key.from_name("daily_sales"), Advlock::Key.parse("name:daily_sales")
    assert_equal Advlock::Key.pair(1, 2), Advlock::Key.coerce([1, 2])
    assert_equal Advlock::Key.bigint(7), Advlock::Key.coerce(7)
    refute_equal Advlock::Key.bigint(5), Advlock::Key.pair(0, 5)
    assert_equal({ Advlock::Key.pair(1, 2) => 1 }[Advlock::Key.parse("1:2")], 1)
  end

  def test_keys_made_from_names_keep_the_name
    # MySQL sessions lock the name itself, so every way of naming a lock keeps it.
    assert_equal "daily_sales", Advlock::Key.from_name("daily_sales").name
    assert_equal "daily_sales", Advlock::Key.parse("name:daily_sales").name
    assert_equal "daily_sales", Advlock::Key.coerce(:daily_sales).name
    assert_nil Advlock::Key.pair(100, 1).name
    assert_nil Advlock::Key.parse("7").name
    assert_nil Advlock::Key.from_name_compat("daily_sales").name
    registry = Advlock::Registry.parse("[locks.weekly_report]\ndescription = \"no key\"\n" \
                                       "[locks.pair]\nkey = [1, 2]\n", "r.toml")
    assert_equal "weekly_report", registry.key("weekly_report").name
    assert_equal Advlock::Key.from_name("weekly_report"), registry.key("weekly_report")
    assert_equal "weekly_report", Advlock::Key.coerce("weekly_report", registry).name
    assert_nil registry.key("pair").name
    assert_equal "daily_sales", Marshal.load(Marshal.dump(Advlock::Key.from_name("daily_sales"))).name
  end

  def test_bad_keys
    ["", "1:", "abc", "+5", "99999999999:1", "9223372036854775808", "name:"].each do |text|
      error = assert_raises(Advlock::BadKey, text) { Advlock::Key.parse(text) }
      assert_equal(-4, error.status)
    end
    assert_raises(Advlock::BadKey) { Advlock::Key.from_name("") }
    assert_raises(Advlock::BadKey) { Advlock::Key.from_name("x" * 1025) }
    assert_raises(Advlock::BadKey) { Advlock::Key.pair(2**31, 1) }
    assert_raises(TypeError) { Advlock::Key.coerce(1.5) }
  end

  def test_registry
    registry = Advlock::Registry.parse("[locks.daily_sales]\nkey = [100, 1]\n", "r.toml")
    assert_equal Advlock::Key.pair(100, 1), registry.key("daily_sales")
    assert_equal "daily_sales", registry.name_of(Advlock::Key.pair(100, 1))
    error = assert_raises(Advlock::NotFound) { registry.key("daily_sale") }
    assert_includes error.message, "daily_sales"
    error = assert_raises(Advlock::RegistryError) { Advlock::Registry.parse("[locks.a]\nkey = 1.5\n", "bad.toml") }
    assert error.message.start_with?("bad.toml:2"), error.message
  end

  def test_version_matches_the_c_library_and_gemspec
    header = File.read(File.join(REPO, "capi/include/advlock/version.h"))
    version = %w[MAJOR MINOR PATCH].map { |part| header[/ADVLOCK_VERSION_#{part} (\d+)/, 1] }.join(".")
    assert_equal version, Advlock.library_version
    assert_equal version, Advlock::VERSION
    # The installed gem's spec when loaded from one, else the checkout's gemspec.
    spec = Gem.loaded_specs["advlock"] || Gem::Specification.load(File.join(REPO, "bindings/ruby/advlock.gemspec"))
    assert_equal version, spec.version.to_s
  end
end
