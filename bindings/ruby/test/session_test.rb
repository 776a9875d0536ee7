# frozen_string_literal: true

require_relative "test_helper"

class SessionTest < Minitest::Test
  include AdvlockTest

  def test_another_process_holding_the_lock_excludes_this_one
    key = Advlock::Key.pair(100, 1)
    io, state, pid = child_holding(key)
    assert_equal "held", state
    assert_equal [pid], pids_holding(key)
    Advlock.connect(AdvlockTest.url) do |session|
      assert_nil session.try_lock(key)
      assert_equal false, session.with_lock(key, timeout: 0) { flunk "ran while held elsewhere" }
      assert_raises(Advlock::NotAcquired) { session.with_lock!(key, timeout: 0) { flunk "ran" } }
      assert_equal "ruby-child", session.holders(key).first.application_name
      io.close
      wait_until("the child to let go") { pids_holding(key).empty? }
      assert_equal :ran, session.with_lock(key, timeout: 0) { :ran }
      assert_empty pids_holding(key)
    end
  end

  def test_timed_wait_and_hand_off
    Advlock.connect(AdvlockTest.url) do |holder|
      Advlock.connect(AdvlockTest.url) do |waiter|
        held = holder.lock("handoff", timeout: 0)
        error = assert_raises(Advlock::NotAcquired) { waiter.lock("handoff", timeout: 0.2) }
        assert_equal 1, error.status
        thread = Thread.new { waiter.with_lock("handoff") { :granted } }
        wait_until("the waiter") { holder.holders("handoff").any? { |h| !h.granted } }
        held.release
        assert_equal :granted, thread.value
      end
    end
  end

  # A plain try_lock's Lock is made natively (advlock_ruby.i,
  # advlock_try_lock_held), a wait's by Lock.new: the same Lock either way.
  def test_a_try_and_a_wait_hand_over_the_same_lock
    Advlock.connect(AdvlockTest.url) do |session|
      tried = session.try_lock("same-lock", shared: true)
      waited = session.lock("same-lock", shared: true, timeout: 5)
      [tried, waited].each do |lock|
        assert_instance_of Advlock::Lock, lock
        assert_same session, lock.session
        assert_equal Advlock::Key.from_name("same-lock"), lock.key
        assert lock.shared?
        assert lock.held?
        assert_equal 0, lock.slot
      end
      assert_equal tried.inspect, waited.inspect
      tried.release
      assert_raises(Advlock::Misuse) { tried.release }
      assert waited.held?
      waited.release
      refute tried.held?
    end
  end

  def test_a_waiting_thread_can_be_interrupted
    Advlock.connect(AdvlockTest.url) do |holder|
      holder.lock("interrupt_me", timeout: 0)
      Advlock.connect(AdvlockTest.url) do |waiter|
        thread = Thread.new { waiter.lock("interrupt_me") }
        thread.report_on_exception = false
        wait_until("the waiter") { holder.holders("interrupt_me").any? { |h| !h.granted } }
        thread.raise(Interrupt)
        assert_raises(Interrupt) { thread.join }
        wait_until("the wait to leave the server") { holder.holders("interrupt_me").all?(&:granted) }
        assert_nil waiter.try_lock("interrupt_me")
      end
    end
  end

  def test_close_from_another_thread_ends_a_wait
    Advlock.connect(AdvlockTest.url) do |holder|
      held = holder.lock("close_while_waiting", timeout: 0)
      waiter = Advlock.connect(AdvlockTest.url)
      thread = Thread.new { waiter.lock("close_while_waiting") }
      thread.report_on_exception = false
      wait_until("the waiter") { holder.holders("close_while_waiting").any? { |h| !h.granted } }
      waiter.close
      error = assert_raises(Advlock::Misuse) { thread.join } # the C library's word for "closed"
      assert_includes error.message, "closed during the wait"
      assert waiter.closed?
      assert held.held?
    end
  end

  # A wait in the process, for another Lock of the same session (no server
  # wait to see), ends too, though the Lock it waits for is never released
  # (Misuse whether the close came during the wait or before it).
  def test_close_from_another_thread_ends_a_wait_for_another_owner
    session = Advlock.connect(AdvlockTest.url)
    held = session.lock("close_in_process", timeout: 0)
    thread = Thread.new { session.lock("close_in_process") }
    thread.report_on_exception = false
    wait_until("the thread to wait") { thread.status == "sleep" }
    session.close
    assert_raises(Advlock::Misuse) { thread.join }
    refute held.held?
    assert_raises(Advlock::Misuse) { held.release }
  end

  def test_shared_locks_and_holders
    Advlock.connect(AdvlockTest.url) do |a|
      Advlock.connect(AdvlockTest.url) do |b|
        assert a.try_lock("report", shared: true).shared?
        refute_nil b.try_lock("report", shared: true)
        assert_nil b.try_lock("report")
        rows = a.holders("report")
        assert_equal [false, true], rows.map(&:is_self).sort_by { |x| x ? 1 : 0 }
        assert rows.all?(&:shared)
        assert_kind_of Time, rows.first.backend_start
        assert_equal "", rows.note # pg_locks shows holders and waiters alike
      end
    end
  end

  def test_lock_checks
    Advlock.connect(AdvlockTest.url) do |session|
      session.with_lock!(Advlock::Key.bigint(9)) do |lock|
        lock.ensure_held
        lock.verify
        lock.verify(strict: true)
        session.verify
        assert lock.held?
      end
    end
  end

  def test_misuse_and_bad_input
    session = Advlock.connect(AdvlockTest.url)
    lock = session.try_lock(5)
    lock.release
    assert_raises(Advlock::Misuse) { lock.release }
    assert_raises(Advlock::InvalidArgument) { session.lock(5, timeout: -1) }
    assert_raises(TypeError) { session.try_lock(1.5) }
    session.close
    session.close
    assert session.closed?
    error = assert_raises(Advlock::Misuse) { session.try_lock(5) }
    assert_includes error.message, "closed"
    assert_raises(Advlock::Misuse) { session.verify }
  end

  def test_a_lock_directory_others_may_write_is_refused
    Dir.mktmpdir do |parent|
      shared = File.join(parent, "everyone")
      Dir.mkdir(shared)
      File.chmod(0o777, shared) # writable by all, not sticky: anyone could swap its lock files
      error = assert_raises(Advlock::UnsafeLockDirectory) { Advlock.connect("local:#{shared}") }
      assert_kind_of Advlock::UnsafeTarget, error
      assert_equal(-22, error.status)
      assert_includes error.message, "chmod o-w"
      assert_equal 0o777, File.stat(shared).mode & 0o7777, "advlock never changes a directory it did not make"
    end
  end

  def test_unsafe_target_and_password_not_in_messages
    error = assert_raises(Advlock::ConnectError) { Advlock.connect("postgresql://someone:s3cret-pw@127.0.0.1:1/db") }
    refute_includes error.message, "s3cret-pw"
    read_only = "#{AdvlockTest.url}#{AdvlockTest.url.include?('?') ? '&' : '?'}options=-c%20default_transaction_read_only%3Don"
    error = assert_raises(Advlock::UnsafeTarget) { Advlock.connect(read_only) }
    assert_kind_of Advlock::ReadOnlyTarget, error
    Advlock.connect(read_only, allow_standby: true) { |s| refute_nil s.try_lock("read_only_ok") }
  end
end
