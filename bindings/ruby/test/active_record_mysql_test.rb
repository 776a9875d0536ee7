# frozen_string_literal: true

require_relative "test_helper"
require "advlock/active_record"
require "uri"

# The drop-in on a MySQL/MariaDB model: advlock's MySQL backend, on the
# server and account of the model's configuration, holding GET_LOCK under the
# gem's name, so a raw GET_LOCK('hourly_batch', 0) job and the drop-in exclude
# each other. Runs on the MariaDB scripts/with-mariadb.sh starts, through
# ruby-mysql2 (Debian's package); trilogy has no Debian package, so for it only
# the URL built from its configuration is checked.
class ActiveRecordMysqlTest < Minitest::Test
  include AdvlockTest

  class MysqlRecord < ActiveRecord::Base
    self.abstract_class = true
  end

  class Job < MysqlRecord; end

  def self.mysql2?
    require "mysql2"
    true
  rescue LoadError
    false
  end

  def setup
    @url = ENV.fetch("ADVLOCK_TEST_MYSQL_URL", "")
  end

  def teardown
    Advlock::ActiveRecord.reset!
    MysqlRecord.remove_connection
    @raw&.close
    ENV.delete("WITH_ADVISORY_LOCK_PREFIX")
    super
  end

  def test_mysql2_and_trilogy_configurations_become_mysql_urls
    %w[mysql2 trilogy].each do |adapter|
      config = { adapter: adapter, host: "db.example", port: 3307, username: "app", password: "p@ss w:rd/+",
                 database: "billing" }
      assert_equal "mysql://app:p%40ss%20w%3Ard%2F%2B@db.example:3307/billing",
                   Advlock::ActiveRecord::LockUrl.for_config(config), adapter
    end
    socket = { "adapter" => "mysql2", "socket" => "/run/mysqld/mysqld.sock", "username" => "app",
               "database" => "billing" }
    assert_equal "mysql://app@/billing?socket=%2Frun%2Fmysqld%2Fmysqld.sock",
                 Advlock::ActiveRecord::LockUrl.for_config(socket), "no password: advlock reads ~/.my.cnf"
    assert_equal "mysql://app:x@[::1]:3306/billing",
                 Advlock::ActiveRecord::LockUrl.for_config(adapter: "trilogy", host: "::1", port: "3306",
                                                           username: "app", password: "x", database: "billing")
    error = assert_raises(Advlock::Unsupported) { Advlock::ActiveRecord::LockUrl.for_config(adapter: "sqlite3") }
    assert_includes error.message, "sqlite3"
  end

  def test_the_lock_name_is_the_gems
    assert_equal "hourly_batch", Advlock::ActiveRecord.key_for("hourly_batch", mysql: true).name
    assert_equal "42", Advlock::ActiveRecord.key_for(42, mysql: true).name
    ENV["WITH_ADVISORY_LOCK_PREFIX"] = "staging_"
    assert_equal "staging_hourly_batch", Advlock::ActiveRecord.key_for("hourly_batch", mysql: true).name
    assert_equal "staging_42", Advlock::ActiveRecord.key_for(42, mysql: true).name
  end

  def test_a_raw_get_lock_job_and_the_drop_in_exclude_each_other
    connect_model
    assert_equal 1, raw.query("SELECT GET_LOCK('hourly_batch', 0)").first.values.first
    assert_equal false, Job.with_advisory_lock("hourly_batch", timeout_seconds: 0) { flunk "ran" }
    assert Job.advisory_lock_exists?("hourly_batch")
    assert_equal 1, raw.query("SELECT RELEASE_LOCK('hourly_batch')").first.values.first
    refute Job.advisory_lock_exists?("hourly_batch")
    ran = Job.with_advisory_lock("hourly_batch", timeout_seconds: 0) do
      assert_equal 0, raw.query("SELECT GET_LOCK('hourly_batch', 0)").first.values.first
      session = Advlock::ActiveRecord.session(Job)
      assert_equal session.server_id, raw.query("SELECT IS_USED_LOCK('hourly_batch')").first.values.first
      assert_equal "hourly_batch", Job.current_advisory_lock
      :ran
    end
    assert_equal :ran, ran
    assert_nil raw.query("SELECT IS_USED_LOCK('hourly_batch')").first.values.first
  end

  def test_the_prefix_is_part_of_the_name
    connect_model
    ENV["WITH_ADVISORY_LOCK_PREFIX"] = "staging_"
    Job.with_advisory_lock(42, timeout_seconds: 0) do
      assert_equal 0, raw.query("SELECT GET_LOCK('staging_42', 0)").first.values.first
      assert_equal 1, raw.query("SELECT GET_LOCK('42', 0)").first.values.first
    end
  end

  def test_eight_threads_never_overlap
    connect_model
    counter = Mutex.new
    inside = 0
    most = 0
    threads = Array.new(8) do
      Thread.new do
        Array.new(25) do
          Job.with_advisory_lock("hourly_batch") do
            counter.synchronize { most = [most, inside += 1].max }
            Thread.pass
            counter.synchronize { inside -= 1 }
          end
        end
      end
    end
    threads.each(&:join)
    assert_equal 1, most, "two threads were inside the block at once"
    assert_nil raw.query("SELECT IS_USED_LOCK('hourly_batch')").first.values.first
  end

  def test_shared_and_transaction_locks_are_refused_as_the_gem_refuses_them
    connect_model
    error = assert_raises(ArgumentError) { Job.with_advisory_lock("hourly_batch", shared: true) { flunk "ran" } }
    assert_includes error.message, "shared"
    assert_raises(ArgumentError) { Job.transaction { Job.with_advisory_lock("hourly_batch", transaction: true) {} } }
  end

  def test_a_wrong_password_is_a_connect_error_that_never_shows_it
    connect_model(password: "wrong-s3cret-#{Process.pid}")
    error = assert_raises(Advlock::ConnectError) { Job.with_advisory_lock("hourly_batch") { flunk "ran" } }
    refute_includes error.message, "wrong-s3cret"
    refute_includes error.message, uri.password
  end

  private

  def uri = URI.parse(@url)

  def connect_model(**overrides)
    skip "ADVLOCK_TEST_MYSQL_URL is not set (scripts/test-ruby.sh runs these under scripts/with-mariadb.sh)" if @url.empty?
    skip "ruby-mysql2 is not installed (scripts/install-deps.sh ruby)" unless self.class.mysql2?

    MysqlRecord.establish_connection(adapter: "mysql2", host: uri.host, port: uri.port,
                                     username: URI.decode_www_form_component(uri.user),
                                     password: URI.decode_www_form_component(uri.password),
                                     database: uri.path.delete_prefix("/"), **overrides)
  end

  # A plain mysql2 connection, as a job that runs GET_LOCK itself would have.
  def raw
    @raw ||= Mysql2::Client.new(**MysqlRecord.connection_db_config.configuration_hash
                                             .slice(:host, :port, :username, :database),
                                password: URI.decode_www_form_component(uri.password))
  end
end
