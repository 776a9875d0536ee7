# frozen_string_literal: true

require_relative "test_helper"
require "advlock/active_record"

# The with_advisory_lock API on Debian's ActiveRecord and ruby-pg, and the
# gem's keys: a raw connection taking pg_try_advisory_lock(crc32(name), 0),
# as the gem does, excludes advlock's with_advisory_lock and the other way round.
class ActiveRecordTest < Minitest::Test
  include AdvlockTest

  class Invoice < ActiveRecord::Base; end

  def setup
    uri = URI.parse(AdvlockTest.url)
    ActiveRecord::Base.establish_connection(adapter: "postgresql", host: uri.host, port: uri.port,
                                            database: uri.path.delete_prefix("/"), username: uri.user,
                                            password: URI.decode_www_form_component(uri.password))
  end

  def teardown
    Advlock::ActiveRecord.reset!
    ActiveRecord::Base.remove_connection
    super
  end

  # What the old gem runs for a name, on a connection of its own.
  def gem_lock(name)
    conn = PG.connect(AdvlockTest.url)
    key = Advlock::Key.from_name_compat(name)
    assert_equal "t", conn.exec("SELECT pg_try_advisory_lock(#{key.k1}, #{key.k2})").getvalue(0, 0)
    conn
  end

  def test_with_advisory_lock_runs_and_returns_the_block_value
    assert_equal 42, Invoice.with_advisory_lock("daily_sales") { 42 }
    assert_equal 42, Invoice.with_advisory_lock("daily_sales", timeout_seconds: 0) { 42 }
    assert_empty pids_holding(Advlock::ActiveRecord.key_for("daily_sales"))
  end

  def test_old_gem_holder_excludes_the_new_api_and_back
    old = gem_lock("daily_sales")
    assert_equal false, Invoice.with_advisory_lock("daily_sales", timeout_seconds: 0) { flunk "ran" }
    assert_raises(Advlock::NotAcquired) { Invoice.with_advisory_lock!("daily_sales", timeout_seconds: 0) { flunk } }
    assert_raises(WithAdvisoryLock::FailedToAcquireLock) { Invoice.with_advisory_lock!("daily_sales", timeout_seconds: 0) {} }
    result = Invoice.with_advisory_lock_result("daily_sales", timeout_seconds: 0) { flunk }
    refute result.lock_was_acquired?
    assert_equal false, result.result
    assert Invoice.advisory_lock_exists?("daily_sales")
    old.close
    wait_until("the old holder to let go") { !Invoice.advisory_lock_exists?("daily_sales") }
    Invoice.with_advisory_lock("daily_sales") do
      other = PG.connect(AdvlockTest.url)
      key = Advlock::Key.from_name_compat("daily_sales")
      assert_equal "f", other.exec("SELECT pg_try_advisory_lock(#{key.k1}, #{key.k2})").getvalue(0, 0)
      other.close
    end
  end

  def test_current_locks_nesting_and_result
    assert_nil Invoice.current_advisory_lock
    result = Invoice.with_advisory_lock_result("outer") do
      Invoice.with_advisory_lock("inner") do
        assert_equal "outer", Invoice.current_advisory_lock
        assert_equal %w[outer inner], Invoice.current_advisory_locks
        Invoice.with_advisory_lock("outer") { :reentrant }
      end
    end
    assert result.lock_was_acquired?
    assert_equal :reentrant, result.result
    # A fiber of the thread (an Enumerator, say) is still that thread.
    inside = Invoice.with_advisory_lock("outer") { Enumerator.new { |y| y << Invoice.current_advisory_lock }.next }
    assert_equal "outer", inside
    assert_empty Invoice.current_advisory_locks
  end

  def test_integer_names_are_keyed_as_the_gem_keys_them
    ENV["WITH_ADVISORY_LOCK_PREFIX"] = "7"
    assert_equal [42, 7], [Advlock::ActiveRecord.key_for(42).k1, Advlock::ActiveRecord.key_for(42).k2]
    old = PG.connect(AdvlockTest.url)
    assert_equal "t", old.exec("SELECT pg_try_advisory_lock(42, 7)").getvalue(0, 0)
    assert_equal false, Invoice.with_advisory_lock(42, timeout_seconds: 0) { flunk "ran" }
    assert_equal :ran, Invoice.with_advisory_lock("42", timeout_seconds: 0) { :ran }, "a string is crc32 of its text"
    old.close
  ensure
    ENV.delete("WITH_ADVISORY_LOCK_PREFIX")
  end

  def test_the_prefix_is_part_of_every_key_and_lock_string
    ENV["WITH_ADVISORY_LOCK_PREFIX"] = "7"
    assert_equal Advlock::Key.from_name_compat("daily_sales", 7), Advlock::ActiveRecord.key_for("daily_sales")
    old = PG.connect(AdvlockTest.url)
    key = Advlock::Key.from_name_compat("daily_sales")
    assert_equal "t", old.exec("SELECT pg_try_advisory_lock(#{key.k1}, 7)").getvalue(0, 0)
    assert_equal false, Invoice.with_advisory_lock("daily_sales", timeout_seconds: 0) { flunk "ran" }
    Invoice.with_advisory_lock("outer") { assert_equal "7outer", Invoice.current_advisory_lock }
    old.close
    # As the gem: the prefix's to_i, masked to 31 bits.
    ENV["WITH_ADVISORY_LOCK_PREFIX"] = "-1"
    assert_equal 0x7fffffff, Advlock::ActiveRecord.key_for("daily_sales").k2
    assert_equal 0x7fffffff, Advlock::ActiveRecord.key_for(42).k2
  ensure
    ENV.delete("WITH_ADVISORY_LOCK_PREFIX")
  end

  # Outside a Rails request the query cache is off; Model.cache turns it on,
  # so the block below would read a stale count were it not uncached.
  def test_disable_query_cache_runs_the_block_uncached
    Invoice.connection.create_table(:invoices, if_not_exists: true)
    count = "SELECT COUNT(*) FROM invoices"
    Invoice.cache do
      before = Invoice.connection.select_value(count).to_i
      admin.exec("INSERT INTO invoices DEFAULT VALUES") # behind the cache's back
      assert_equal before, Invoice.connection.select_value(count).to_i, "the query cache is on"
      assert_equal before, Invoice.with_advisory_lock("cached") { Invoice.connection.select_value(count).to_i }
      fresh = Invoice.with_advisory_lock("uncached", disable_query_cache: true) do
        refute Invoice.connection.query_cache_enabled
        Invoice.connection.select_value(count).to_i
      end
      assert_equal before + 1, fresh
      assert Invoice.connection.query_cache_enabled, "cached again after the block"
    end
  end

  def test_exclusive_inside_shared_of_the_same_name_is_no_reentry
    old = PG.connect(AdvlockTest.url)
    key = Advlock::Key.from_name_compat("report")
    old.exec("SELECT pg_advisory_lock_shared(#{key.k1}, #{key.k2})")
    outer = Invoice.with_advisory_lock_result("report", shared: true, timeout_seconds: 0) do
      assert_equal :again, Invoice.with_advisory_lock("report", shared: true, timeout_seconds: 0) { :again }
      Invoice.with_advisory_lock("report", timeout_seconds: 0) { :write }
    end
    assert outer.lock_was_acquired?
    assert_equal false, outer.result, "another session's shared lock keeps the exclusive one out"
    old.close
  end

  def test_instance_methods_are_the_models
    Invoice.connection.create_table(:invoices, if_not_exists: true)
    record = Invoice.new
    assert_equal :ran, record.with_advisory_lock("instance", timeout_seconds: 0) { :ran }
    assert_equal :ran, record.with_advisory_lock!("instance") { :ran }
    assert record.with_advisory_lock_result("instance") { :ran }.lock_was_acquired?
    refute record.advisory_lock_exists?("instance")
    old = gem_lock("instance")
    assert_equal false, record.with_advisory_lock("instance", timeout_seconds: 0) { flunk "ran" }
    assert record.advisory_lock_exists?("instance")
    old.close
  end

  def test_unknown_options_raise_instead_of_waiting
    error = assert_raises(ArgumentError) { Invoice.with_advisory_lock("typo", timeout: 0) { flunk "ran" } }
    assert_includes error.message, ":timeout"
    assert_includes error.message, "timeout_seconds:"
    assert_raises(ArgumentError) { Invoice.with_advisory_lock_result("typo", "shared" => true) { flunk } }
  end

  def test_advisory_lock_exists_takes_no_trial_lock
    refute Invoice.advisory_lock_exists?("nobody_holds_this")
    assert_empty pids_holding(Advlock::ActiveRecord.key_for("nobody_holds_this"))
  end

  def test_shared_locks
    old = PG.connect(AdvlockTest.url)
    key = Advlock::Key.from_name_compat("report")
    old.exec("SELECT pg_advisory_lock_shared(#{key.k1}, #{key.k2})")
    assert_equal :read, Invoice.with_advisory_lock("report", shared: true, timeout_seconds: 0) { :read }
    assert_equal false, Invoice.with_advisory_lock("report", timeout_seconds: 0) { :write }
    old.close
  end

  def test_transaction_locks_print_nothing
    _out, err = capture_subprocess_io do
      Invoice.transaction { Invoice.with_advisory_lock("tx_quiet", transaction: true) { :in_tx } }
    end
    assert_empty err
  end

  def test_transaction_locks_end_with_the_transaction
    [true, false].each do |commit|
      Invoice.transaction do
        assert_equal :in_tx, Invoice.with_advisory_lock("tx_job", transaction: true, timeout_seconds: 0) { :in_tx }
        assert_equal [Invoice.connection.select_value("SELECT pg_backend_pid()").to_i],
                     pids_holding(Advlock::ActiveRecord.key_for("tx_job"))
        raise ActiveRecord::Rollback unless commit
      end
      assert_empty pids_holding(Advlock::ActiveRecord.key_for("tx_job"))
    end
    error = assert_raises(Advlock::Misuse) { Invoice.with_advisory_lock("tx_job", transaction: true) {} }
    assert_includes error.message, "transaction"
  end

  def test_lost_lock_raises_instead_of_running_on_unprotected
    assert_raises(Advlock::LockLost) do
      Invoice.with_advisory_lock("doomed") do
        session = Advlock::ActiveRecord.session(Invoice)
        terminate(session.server_id)
        wait_until("the watchdog") { session.lost? }
      end
    end
  end
end
