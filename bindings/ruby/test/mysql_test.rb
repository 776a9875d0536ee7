# frozen_string_literal: true

require_relative "test_helper"
require "open3"
require "tempfile"
require "uri"

# MySQL/MariaDB: the same binding, only the URL differs. Runs against the real
# server scripts/with-mariadb.sh starts (ADVLOCK_TEST_MYSQL_URL); skipped, with
# the reason, when that variable is unset. The server is looked at and
# disturbed with the mariadb command-line client, as root on the server's Unix
# socket (ADVLOCK_TEST_MYSQL_STATE/socket), else with the URL's credentials.
class MysqlTest < Minitest::Test
  include AdvlockTest

  UNIQUE = "rb#{Process.pid}"

  def setup
    @url = ENV.fetch("ADVLOCK_TEST_MYSQL_URL", "")
    skip "ADVLOCK_TEST_MYSQL_URL is not set (scripts/test-ruby.sh runs these under scripts/with-mariadb.sh)" if @url.empty?
  end

  def test_a_name_is_held_under_that_exact_name
    name = "daily_sales_#{UNIQUE}"
    Advlock.connect(@url) do |session|
      lock = session.try_lock(name)
      assert lock&.held?
      assert_equal session.server_id.to_s, holder_of(name)
      lock.release
      assert_equal "NULL", holder_of(name)
      # Every way of naming a lock reaches the server as the name.
      [name.to_sym, Advlock::Key.from_name(name), Advlock::Key.parse("name:#{name}")].each do |key|
        session.with_lock!(key, timeout: 0) do
          assert_equal session.server_id.to_s, holder_of(name), key.inspect
        end
      end
    end
    entry = "report_#{UNIQUE}"
    registry = Advlock::Registry.parse("[locks.#{entry}]\ndescription = \"no key of its own\"\n", "t.toml")
    Advlock.connect(@url, registry: registry) do |session|
      session.with_lock!(entry, timeout: 0) { assert_equal session.server_id.to_s, holder_of(entry) }
    end
  end

  def test_holders_show_the_holder_and_say_what_the_server_cannot_show
    name = "listed_#{UNIQUE}"
    Advlock.connect(@url) do |holder|
      Advlock.connect(@url) do |asker|
        holder.with_lock!(name, timeout: 0) do
          rows = asker.holders(name)
          assert_equal [holder.server_id], rows.map(&:server_id)
          assert rows.first.granted
          refute rows.first.is_self
          assert_equal name, rows.first.name
          assert_equal name, rows.first.key.name
          # MariaDB's metadata_lock_info lists holders, never waiters: the note says so.
          assert_includes rows.note, "waiting"
          # A holder's key names the same lock: taking it from another session fails.
          assert_nil asker.try_lock(rows.first.key)
        end
      end
    end
  end

  def test_a_second_session_cannot_take_it_until_released
    name = "exclusive_#{UNIQUE}"
    Advlock.connect(@url) do |first|
      Advlock.connect(@url) do |second|
        lock = first.try_lock(name)
        refute_nil lock
        assert_nil second.try_lock(name)
        assert_raises(Advlock::NotAcquired) { second.lock(name, timeout: 0.2) }
        lock.release
        again = second.try_lock(name)
        refute_nil again
        assert_equal second.server_id.to_s, holder_of(name)
        again.release
      end
    end
  end

  def test_keys_are_held_as_advlock_key_text
    Advlock.connect(@url) do |session|
      session.with_lock!(Advlock::Key.pair(100, Process.pid), timeout: 0) do
        assert_equal session.server_id.to_s, holder_of("advlock:100:#{Process.pid}")
      end
      session.with_lock!(Advlock::Key.bigint(-Process.pid), timeout: 0) do
        assert_equal session.server_id.to_s, holder_of("advlock:-#{Process.pid}")
      end
    end
  end

  def test_names_hold_at_most_64_characters
    prefix = "long_#{UNIQUE}_"
    Advlock.connect(@url) do |session|
      error = assert_raises(Advlock::BadKey) { session.try_lock(prefix + ("x" * (65 - prefix.size))) }
      assert_equal(-4, error.status)
      assert_includes error.message, "at most 64"
      longest = prefix + ("x" * (64 - prefix.size))
      session.with_lock!(longest, timeout: 0) { assert_equal session.server_id.to_s, holder_of(longest) }
    end
  end

  def test_scope_prefixes_names
    name = "daily_sales_#{UNIQUE}"
    Advlock.connect("#{@url}#{@url.include?('?') ? '&' : '?'}scope=billing") do |session|
      session.with_lock!(name, timeout: 0) { assert_equal session.server_id.to_s, holder_of("billing:#{name}") }
    end
  end

  def test_shared_mode_is_unsupported
    Advlock.connect(@url) do |session|
      error = assert_raises(Advlock::Unsupported) { session.try_lock("shared_#{UNIQUE}", shared: true) }
      assert_equal(-19, error.status)
    end
  end

  def test_kill_connection_means_lock_lost_and_on_lost
    name = "doomed_#{UNIQUE}"
    reasons = Queue.new
    session = Advlock.connect(@url, on_lost: ->(why) { reasons << why })
    lock = session.try_lock(name)
    refute_nil lock
    refute session.lost?
    admin_sql("KILL CONNECTION #{session.server_id}")
    wait_until("the on_lost block", limit: 120) { !reasons.empty? }
    assert_equal 1, reasons.size
    assert session.lost?
    refute lock.held?
    assert_raises(Advlock::LockLost) { lock.ensure_held }
    assert_raises(Advlock::LockLost) { session.check }
    error = assert_raises(Advlock::LockLost) { lock.release }
    assert_equal(-13, error.status)
    session.close
    assert_equal 1, reasons.size
    wait_until("the server to free the lock", limit: 120) { holder_of(name) == "NULL" }
  end

  private

  def admin_command
    state = ENV.fetch("ADVLOCK_TEST_MYSQL_STATE", "")
    unless state.empty?
      return ["mariadb", "--no-defaults", "-uroot", "-S", File.read(File.join(state, "socket")).strip]
    end

    uri = URI.parse(@url)
    ["mariadb", "--no-defaults", "--protocol=TCP", "-h", uri.host, "-P", (uri.port || 3306).to_s,
     "-u", URI.decode_www_form_component(uri.user.to_s), "-p#{URI.decode_www_form_component(uri.password.to_s)}"]
  end

  # One statement through the mariadb client; its single value as text.
  def admin_sql(sql)
    out, err, status = Open3.capture3(*admin_command, "-Nse", sql)
    assert status.success?, "mariadb #{sql}: #{err}"
    out.strip
  end

  # IS_USED_LOCK(name): the connection id holding it, or "NULL".
  def holder_of(name) = admin_sql("SELECT IS_USED_LOCK('#{name.gsub("'", "''")}')")
end
