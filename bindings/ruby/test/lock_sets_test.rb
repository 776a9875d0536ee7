# frozen_string_literal: true

require_relative "test_helper"

# Sets of locks, all or nothing (Session#try_lock_all, #lock_all,
# #with_locks), and the stop_grace: option, on a real PostgreSQL. The order
# that keeps overlapping sets from deadlocking is the core's
# (tests/integration); here what Ruby adds. A set is taken ascending by key
# (bigint keys by value): FIRST before SECOND whatever the order asked.
class LockSetsTest < Minitest::Test
  include AdvlockTest

  DAILY = Advlock::Key.from_name("rb_set_daily")
  INVENTORY = Advlock::Key.pair(4400, 1)
  FIRST = Advlock::Key.bigint(4_400_001)
  SECOND = Advlock::Key.bigint(4_400_002)

  def test_a_try_holds_every_key_and_release_frees_them_all
    Advlock.connect(AdvlockTest.url) do |session|
      set = session.try_lock_all(["rb_set_daily", [4400, 1]])
      assert_kind_of Advlock::LockSet, set
      assert_equal [DAILY, INVENTORY], set.keys, "the keys in the order asked"
      assert_equal 2, set.size
      assert_equal 2, set.length
      assert_same session, set.session
      refute set.shared?
      assert set.held?
      [DAILY, INVENTORY].each { |key| assert_equal [session.server_id], pids_holding(key), key.inspect }
      set.ensure_held
      set.verify
      set.verify(strict: true)
      assert_equal "set of #{DAILY}, #{INVENTORY}", set.to_s
      assert_match(/\A#<Advlock::LockSet #{DAILY}, #{INVENTORY} held>\z/, set.inspect)

      set.release
      refute set.held?
      assert_empty pids_holding(DAILY)
      assert_empty pids_holding(INVENTORY)
      assert_raises(Advlock::Misuse) { set.release }
      assert_includes set.inspect, "not held"
    end
  end

  def test_a_key_held_elsewhere_gets_nothing_and_keeps_none_of_the_free_keys
    Advlock.connect(AdvlockTest.url) do |holder|
      Advlock.connect(AdvlockTest.url) do |other|
        held = holder.try_lock(INVENTORY)
        assert_nil other.try_lock_all([DAILY, INVENTORY, FIRST])
        assert_empty pids_holding(DAILY), "all or nothing: the free keys were not kept"
        assert_empty pids_holding(FIRST)
        error = assert_raises(Advlock::NotAcquired) { other.lock_all([DAILY, INVENTORY], timeout: 0) }
        assert_equal "lock set of #{DAILY}, #{INVENTORY}: not all of them were free at once (none is held now) " \
                     "(timeout: 0, no wait)", error.message
        assert_equal false, other.with_locks([DAILY, INVENTORY], timeout: 0) { flunk "ran without every lock" }
        assert_raises(Advlock::NotAcquired) { other.with_locks!([DAILY, INVENTORY], timeout: 0) { flunk "ran" } }
        assert_empty pids_holding(DAILY)
        held.release
        assert_equal :ran, other.with_locks([DAILY, INVENTORY], timeout: 0) { :ran }
      end
    end
  end

  def test_a_wait_gets_the_whole_set_once_the_holder_lets_go
    Advlock.connect(AdvlockTest.url) do |holder|
      Advlock.connect(AdvlockTest.url) do |waiter|
        held = holder.try_lock(FIRST)
        thread = Thread.new { waiter.lock_all([SECOND, FIRST], timeout: 60) }
        wait_until("the set's wait on the server") { waiting?(waiter.server_id) }
        assert_empty pids_holding(SECOND), "waiting for the first key of the set, it holds none"
        held.release
        set = thread.value
        assert_equal [SECOND, FIRST], set.keys
        assert_equal [waiter.server_id], pids_holding(FIRST)
        assert_equal [waiter.server_id], pids_holding(SECOND)
        set.release
      end
    end
  end

  def test_a_timed_out_wait_leaves_no_lock_behind
    Advlock.connect(AdvlockTest.url) do |holder|
      Advlock.connect(AdvlockTest.url) do |waiter|
        held = holder.try_lock(SECOND) # the wait holds FIRST while it waits for SECOND
        error = assert_raises(Advlock::NotAcquired) { waiter.lock_all([FIRST, SECOND], timeout: 0.2) }
        assert_includes error.message, "none is held now"
        assert_includes error.message, "gave up after 0.2 s"
        assert_empty pids_holding(FIRST)
        refute waiting?(waiter.server_id)
        assert held.held?
      end
    end
  end

  def test_with_locks_releases_on_leaving_the_block_and_on_an_exception
    Advlock.connect(AdvlockTest.url) do |session|
      result = session.with_locks([DAILY, FIRST]) do |set|
        assert set.held?
        assert_equal [session.server_id], pids_holding(FIRST)
        :done
      end
      assert_equal :done, result
      assert_empty pids_holding(DAILY)
      assert_empty pids_holding(FIRST)

      boom = Class.new(StandardError)
      kept = nil
      assert_raises(boom) do
        session.with_locks!([DAILY, FIRST], shared: true) do |set|
          kept = set
          raise boom
        end
      end
      assert kept.shared?
      refute kept.held?
      assert_empty pids_holding(DAILY)
      assert_empty pids_holding(FIRST)
    end
  end

  def test_shared_sets_exclude_an_exclusive_one_only
    Advlock.connect(AdvlockTest.url) do |a|
      Advlock.connect(AdvlockTest.url) do |b|
        first = a.try_lock_all([DAILY, FIRST], shared: true)
        second = b.try_lock_all([FIRST, DAILY], shared: true)
        refute_nil first
        refute_nil second
        assert_nil Advlock.connect(AdvlockTest.url) { |c| c.try_lock_all([FIRST]) }
        first.release
        second.release
        refute_nil Advlock.connect(AdvlockTest.url) { |c| c.try_lock_all([FIRST]) }
      end
    end
  end

  # As for one lock (interrupt_test.rb): the interrupted wait ends, and the
  # key it held while waiting for the other is given back.
  def test_thread_raise_and_kill_end_a_sets_wait_and_leave_nothing
    stop = Class.new(StandardError)
    Advlock.connect(AdvlockTest.url) do |holder|
      held = holder.try_lock(SECOND)
      Advlock.connect(AdvlockTest.url) do |waiter|
        pid = waiter.server_id
        %i[raise kill].each do |how|
          thread = Thread.new do
            Thread.current.report_on_exception = false
            waiter.with_locks([FIRST, SECOND]) { :granted }
          end
          wait_until("the thread to wait for the set") { waiting?(pid) }
          assert_equal [pid], pids_holding(FIRST), "#{how}: the wait holds FIRST while it waits for SECOND"
          how == :raise ? thread.raise(stop) : thread.kill
          how == :raise ? assert_raises(stop) { thread.join } : thread.join
          refute thread.alive?
          assert_empty waiter.holders.select(&:is_self), "#{how}: the interrupted session holds and waits for nothing"
        end
        assert held.held?, "the holder never let go"
        held.release
        refute_nil waiter.try_lock_all([FIRST, SECOND])
      end
    end
  end

  # Thread#wakeup raises nothing: the set's wait is cancelled, then resumed
  # (a new wait begins on the server), and ends holding the set.
  def test_an_interruption_that_raises_nothing_resumes_a_sets_wait
    Advlock.connect(AdvlockTest.url) do |holder|
      held = holder.try_lock(SECOND)
      Advlock.connect(AdvlockTest.url) do |waiter|
        pid = waiter.server_id
        thread = Thread.new { waiter.with_locks([FIRST, SECOND]) { |set| set.keys } }
        wait_until("the thread to wait for the set") { waiting?(pid) }
        first = wait_start(SECOND, pid)
        thread.wakeup
        wait_until("a new wait to begin") { (start = wait_start(SECOND, pid)) && start != first }
        held.release
        assert_equal [FIRST, SECOND], thread.value
      end
    end
  end

  def test_closing_the_session_ends_a_sets_wait_with_misuse
    Advlock.connect(AdvlockTest.url) do |holder|
      held = holder.try_lock(SECOND)
      waiter = Advlock.connect(AdvlockTest.url)
      pid = waiter.server_id
      thread = Thread.new { waiter.lock_all([FIRST, SECOND]) }
      thread.report_on_exception = false
      wait_until("the thread to wait for the set") { waiting?(pid) }
      waiter.close
      assert_raises(Advlock::Misuse) { thread.join }
      wait_until("the closed session to leave the server") { pids_holding(FIRST).empty? }
      assert held.held?
    end
  end

  def test_bad_sets_are_refused_with_what_to_do
    Advlock.connect(AdvlockTest.url) do |session|
      ["rb_set_daily", DAILY, :rb_set_daily, 7].each do |one_key|
        %i[try_lock_all lock_all with_locks with_locks!].each do |call|
          error = assert_raises(TypeError, "#{call}(#{one_key.inspect})") { session.public_send(call, one_key) { flunk } }
          assert_includes error.message, "an Array of keys"
          assert_includes error.message, "for one key, use try_lock"
        end
      end
      assert_raises(Advlock::InvalidArgument) { session.try_lock_all([]) }
      assert_raises(Advlock::InvalidArgument) { session.lock_all(%w[rb_set_daily rb_set_daily]) }
      assert_raises(Advlock::InvalidArgument, "a name and its key are one lock") do
        session.try_lock_all(["rb_set_daily", DAILY])
      end
      assert_raises(ArgumentError, "no slots for a set") { session.try_lock_all([DAILY, FIRST], slots: 2) }
      assert_raises(ArgumentError, "no fence for a set") { session.lock_all([DAILY, FIRST], fence: true) }
      assert_raises(Advlock::InvalidArgument) { session.lock_all([DAILY], timeout: -1) }
      assert_empty pids_holding(DAILY), "a refused set leaves nothing behind"
    end
  end

  def test_stop_grace_reaches_the_c_library
    error = assert_raises(Advlock::InvalidArgument) { Advlock.connect(AdvlockTest.url, stop_grace: 3601) }
    assert_includes error.message, "stop grace"
    assert_raises(Advlock::InvalidArgument) { Advlock.connect(AdvlockTest.url, stop_grace: -1) }
    [0, 2.5, 3600].each do |grace|
      Advlock.connect(AdvlockTest.url, stop_grace: grace) { |session| session.verify }
    end
  end

  private

  # Whether pid waits (not granted) for an advisory lock, from pg_locks.
  def waiting?(pid)
    admin.exec_params("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid = $1", [pid])
         .ntuples.positive?
  end

  # When pid's wait for the bigint key began (pg_locks.waitstart, PostgreSQL 14 and later), or nil.
  def wait_start(key, pid)
    admin.exec_params("SELECT waitstart FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND " \
                      "classid = $1 AND objid = $2 AND objsubid = 1 AND pid = $3",
                      [(key.bigint >> 32) & 0xffffffff, key.bigint & 0xffffffff, pid])
         .values.flatten.first
  end
end
