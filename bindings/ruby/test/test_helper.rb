# frozen_string_literal: true

# The Ruby binding's tests run against a real PostgreSQL (never a mock):
# ADVLOCK_TEST_PG_URL when scripts/with-postgres.sh set it, else a throwaway
# server started here with scripts/pg-start.sh and stopped at exit.
require "minitest/autorun"
require "json"
require "pg"
require "tmpdir"
require "advlock"

module AdvlockTest
  REPO = File.expand_path("../../..", __dir__)

  def self.url
    @url ||= ENV["ADVLOCK_TEST_PG_URL"].then do |given|
      next given if given && !given.empty?

      state = Dir.mktmpdir("advlock-minitest-pg.")
      system(File.join(REPO, "scripts/pg-start.sh"), state, out: $stderr, exception: true)
      Minitest.after_run { system(File.join(REPO, "scripts/pg-stop.sh"), state) }
      File.read(File.join(state, "url")).strip
    end
  end

  # A plain ruby-pg connection for looking at and disturbing the server.
  def admin
    @admin ||= PG.connect(AdvlockTest.url)
  end

  def teardown
    @admin&.close
    super
  end

  # Backend pids holding key, straight from pg_locks.
  def pids_holding(key)
    where = if key.pair?
              "classid = #{key.k1 & 0xffffffff} AND objid = #{key.k2 & 0xffffffff} AND objsubid = 2"
            else
              "classid = #{(key.bigint >> 32) & 0xffffffff} AND objid = #{key.bigint & 0xffffffff} AND objsubid = 1"
            end
    admin.exec("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND #{where} ORDER BY pid")
         .map { |row| row["pid"].to_i }
  end

  def terminate(pid)
    admin.exec_params("SELECT pg_terminate_backend($1)", [pid])
  end

  # Polls until the block is true; fails (not hangs) if it never is. Not a
  # timing assertion: the limit only turns a hang into a readable failure.
  def wait_until(what, limit: 60)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + limit
    until yield
      flunk "gave up waiting for #{what}" if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      sleep 0.01
    end
  end

  # A second Ruby process holding key until its stdin closes; returns [io, pid of its backend].
  def child_holding(key)
    code = <<~RUBY
      require "advlock"
      Advlock.connect(ARGV[0], application_name: "ruby-child") do |s|
        lock = s.try_lock(Advlock::Key.parse(ARGV[1]))
        puts "\#{lock ? 'held' : 'busy'} \#{s.server_id}"
        $stdout.flush
        $stdin.read
      end
    RUBY
    io = IO.popen([RbConfig.ruby, "-e", code, AdvlockTest.url, key.to_s], "r+")
    state, pid = io.gets.split
    [io, state, pid.to_i]
  end
end
