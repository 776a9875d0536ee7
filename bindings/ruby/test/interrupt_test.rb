# frozen_string_literal: true

require_relative "test_helper"

# Ruby taking a thread back from a wait for a lock (Ctrl-C, Thread#raise,
# Thread#kill) ends the wait at once, and leaves no lock behind: afterwards
# another session takes the lock while the interrupted session is still open.
# "At once" is shown without timing: the session holding the lock never lets
# go while the waiter is interrupted, so only the interrupt can end the wait.
class InterruptTest < Minitest::Test
  include AdvlockTest

  # Waits for ARGV[1] on its own session (with an on_lost block when ARGV[2]
  # says so), says "interrupted" on Interrupt, then how many locks its
  # session holds, and keeps the session open until its stdin closes.
  CHILD = <<~RUBY
    require "advlock"
    session = Advlock.connect(ARGV[0])
    session.on_lost { |why| warn why } if ARGV[2] == "on_lost"
    key = Advlock::Key.parse(ARGV[1])
    puts session.server_id
    $stdout.flush
    begin
      session.with_lock(key) { puts "granted" }
    rescue Interrupt
      puts "interrupted"
    end
    puts session.holders.count(&:is_self)
    $stdout.flush
    $stdin.read
  RUBY

  def test_ctrl_c_ends_a_wait_and_leaves_no_lock
    %w[plain on_lost].each do |mode|
      key = Advlock::Key.pair(4242, mode == "plain" ? 1 : 2)
      Advlock.connect(AdvlockTest.url) do |holder|
        lock = holder.try_lock(key)
        io = IO.popen([RbConfig.ruby, "-e", CHILD, AdvlockTest.url, key.to_s, mode], "r+")
        pid = line_from(io, mode).to_i
        wait_until("the child to wait for the lock") { waiting_pids(key).include?(pid) }
        Process.kill("INT", io.pid)
        assert_equal "interrupted", line_from(io, mode), mode
        assert_equal "0", line_from(io, mode), "#{mode}: the interrupted session holds nothing"
        assert lock.held?, "the holder never let go"
        lock.release
        Advlock.connect(AdvlockTest.url) { |other| refute_nil other.try_lock(key), mode }
      ensure
        io&.close
      end
    end
  end

  # The same through the with_advisory_lock drop-in, on a model's database.
  DROP_IN_CHILD = <<~RUBY
    require "advlock/active_record"
    require "uri"
    uri = URI.parse(ARGV[0])
    ActiveRecord::Base.establish_connection(adapter: "postgresql", host: uri.host, port: uri.port,
                                            database: uri.path.delete_prefix("/"), username: uri.user,
                                            password: URI.decode_www_form_component(uri.password))
    class Job < ActiveRecord::Base; end
    session = Advlock::ActiveRecord.session(Job)
    puts session.server_id
    $stdout.flush
    begin
      Job.with_advisory_lock(ARGV[1]) { puts "granted" }
    rescue Interrupt
      puts "interrupted"
    end
    puts Advlock::ActiveRecord.session(Job).holders.count(&:is_self)
    $stdout.flush
    $stdin.read
  RUBY

  def test_ctrl_c_ends_a_drop_in_wait_and_leaves_no_lock
    key = Advlock::Key.from_name_compat("hourly_invoices")
    Advlock.connect(AdvlockTest.url) do |holder|
      lock = holder.try_lock(key)
      io = IO.popen([RbConfig.ruby, "-e", DROP_IN_CHILD, AdvlockTest.url, "hourly_invoices"], "r+")
      pid = line_from(io, "drop-in").to_i
      wait_until("the child to wait for the lock") { waiting_pids(key).include?(pid) }
      Process.kill("INT", io.pid)
      assert_equal "interrupted", line_from(io, "drop-in")
      assert_equal "0", line_from(io, "drop-in"), "the interrupted session holds nothing"
      assert lock.held?, "the holder never let go"
      lock.release
      Advlock.connect(AdvlockTest.url) { |other| refute_nil other.try_lock(key) }
    ensure
      io&.close
    end
  end

  def test_thread_raise_and_kill_end_a_wait_and_leave_no_lock
    stop = Class.new(StandardError)
    key = Advlock::Key.pair(4242, 3)
    Advlock.connect(AdvlockTest.url) do |holder|
      lock = holder.try_lock(key)
      Advlock.connect(AdvlockTest.url) do |waiter|
        waiter.on_lost { |_why| nil }
        pid = waiter.server_id
        %i[raise kill].each do |how|
          thread = Thread.new do
            Thread.current.report_on_exception = false
            waiter.with_lock(key) { :granted }
          end
          wait_until("the thread to wait for the lock") { waiting_pids(key).include?(pid) }
          how == :raise ? thread.raise(stop) : thread.kill
          how == :raise ? assert_raises(stop) { thread.join } : thread.join
          refute thread.alive?
          assert_empty waiter.holders.select(&:is_self), "#{how}: the interrupted session holds nothing"
        end
        assert lock.held?, "the holder never let go"
        lock.release
        Advlock.connect(AdvlockTest.url) { |other| refute_nil other.try_lock(key) }
      end
    end
  end

  # Thread#wakeup takes the thread back from the wait without an exception
  # to raise: the wait is cancelled (the server shows a new wait begin) and
  # then resumed, and it ends holding the lock once the holder lets go.
  def test_an_interruption_that_raises_nothing_resumes_the_wait
    key = Advlock::Key.pair(4242, 4)
    Advlock.connect(AdvlockTest.url) do |holder|
      lock = holder.try_lock(key)
      Advlock.connect(AdvlockTest.url) do |waiter|
        pid = waiter.server_id
        thread = Thread.new { waiter.with_lock(key) { :granted } }
        wait_until("the thread to wait for the lock") { waiting_pids(key).include?(pid) }
        first = wait_start(key, pid)
        thread.wakeup
        wait_until("a new wait to begin") { (start = wait_start(key, pid)) && start != first }
        lock.release
        assert_equal :granted, thread.value
      end
    end
  end

  # A plain try_lock runs in one native call (advlock_ruby.i,
  # advlock_try_lock_held) without Thread.handle_interrupt; an interrupt
  # already pending when it begins (Thread#raise under the caller's
  # handle_interrupt(Object => :never)) sends it down the full path, which
  # raises it as from a wait: nothing is left held.
  def test_an_interrupt_pending_at_a_try_lock_leaves_no_lock
    stop = Class.new(StandardError)
    key = Advlock::Key.pair(4242, 6)
    Advlock.connect(AdvlockTest.url) do |session|
      Thread.handle_interrupt(Object => :never) do
        Thread.current.raise(stop)
        assert_raises(stop) { session.try_lock(key) }
      end
      assert_empty session.holders.select(&:is_self), "the interrupted try left a lock"
      Advlock.connect(AdvlockTest.url) { |other| refute_nil other.try_lock(key) }
    end
  end

  # In a process with one thread, Ruby would start a thread for every
  # try_lock so that a Ctrl-C reaches the call (interrupt_relay.rb); the
  # relay thread spares that: no Thread is made by 200 try_lock + release
  # cycles, and one (the relay again) when something killed the relay. The
  # Ctrl-C tests above show the relay delivers. GC off, so dead threads stay
  # countable.
  ONE_THREAD_CHILD = <<~RUBY
    require "advlock"
    GC.disable
    session = Advlock.connect(ARGV[0])
    threads = -> { ObjectSpace.each_object(Thread).count }
    cycles = -> { 200.times { session.try_lock(Advlock::Key.pair(4242, 5)).release } }
    before = threads.call
    cycles.call
    puts threads.call - before
    Thread.list.each { |t| t.kill.join if t.name == "advlock interrupts" }
    before = threads.call
    cycles.call
    puts threads.call - before
  RUBY

  def test_a_try_lock_starts_no_thread
    out = IO.popen([RbConfig.ruby, "-e", ONE_THREAD_CHILD, AdvlockTest.url], &:read)
    assert_equal %w[0 1], out.split, "threads made by 200 cycles: relay alive, then relay killed first"
  end

  private

  # When pid's wait for key began, from pg_locks (PostgreSQL 14 and later), or nil.
  def wait_start(key, pid)
    admin.exec_params("SELECT waitstart FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND " \
                      "classid = #{key.k1} AND objid = #{key.k2} AND objsubid = 2 AND pid = $1", [pid])
         .values.flatten.first
  end

  # Backend pids waiting (not granted) for key, from pg_locks.
  def waiting_pids(key)
    admin.exec("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND " \
               "classid = #{key.k1} AND objid = #{key.k2} AND objsubid = 2").map { |row| row["pid"].to_i }
  end

  # The child's next line; fails (not hangs) when it never comes.
  def line_from(io, what)
    flunk "#{what}: the child said nothing within 60 s" unless io.wait_readable(60)
    line = io.gets
    flunk "#{what}: the child ended without a word" if line.nil?
    line.strip
  end
end
