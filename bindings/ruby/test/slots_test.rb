# frozen_string_literal: true

require_relative "test_helper"

# Job slots ("at most N at once") through slots:, on a real PostgreSQL.
class SlotsTest < Minitest::Test
  include AdvlockTest

  EXPORT = Advlock::Key.pair(4300, 3)

  def test_three_holders_fill_three_slots_and_a_waiter_gets_the_one_freed
    sessions = Array.new(4) { Advlock.connect(AdvlockTest.url) }
    held = sessions.first(3).map { |s| s.try_lock(EXPORT, slots: 3) || flunk("a free slot was not taken") }
    assert_equal [1, 2, 3], held.map(&:slot).sort, "three holders, three distinct slots"
    held.zip(sessions) do |lock, session|
      assert_equal EXPORT, lock.key
      assert_equal EXPORT.slot(lock.slot), lock.server_key
      assert_equal [session.server_id], pids_holding(lock.server_key)
    end
    assert_empty pids_holding(EXPORT), "a slot lock never locks the key itself"

    fourth = sessions.last
    assert_nil fourth.try_lock(EXPORT, slots: 3), "every slot is held"
    assert_equal false, fourth.with_lock(EXPORT, slots: 3, timeout: 0) { flunk "ran without a slot" }
    waiter = Thread.new { fourth.with_lock(EXPORT, slots: 3) { |lock| [lock.slot, pids_holding(lock.server_key)] } }
    wait_until("the fourth to wait on the server") do
      admin.exec_params("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid = $1",
                        [fourth.server_id]).ntuples.positive?
    end
    held.find { |lock| lock.slot == 2 }.release
    assert waiter.join(60), "the waiter never got the freed slot" # the limit only turns a hang into a failure
    assert_equal [2, [fourth.server_id]], waiter.value, "the waiter takes the slot that freed"
  ensure
    sessions&.each(&:close)
  end

  def test_slot_keys_follow_the_rule_psql_computes
    [1, 64].each do |slot|
      # advlock.h's frozen rule, as a psql user would write it.
      expected = admin.exec_params("SELECT ('x' || left(encode(sha256(convert_to('advlock-slot:' || $1 || '/' || $2, " \
                                   "'UTF8')), 'hex'), 16))::bit(64)::bigint", [EXPORT.to_s, slot.to_s]).getvalue(0, 0)
      assert_equal expected.to_i, EXPORT.slot(slot).bigint, "slot #{slot}"
    end
  end

  def test_bad_slot_values_are_invalid_arguments
    [0, 65, -1, 2**70, "3", 2.5].each do |n|
      assert_raises(Advlock::InvalidArgument, "Key#slot(#{n.inspect})") { EXPORT.slot(n) }
    end
    Advlock.connect(AdvlockTest.url) do |session|
      [65, -1, 2**32 + 2, "3"].each do |n|
        assert_raises(Advlock::InvalidArgument, "slots: #{n.inspect}") { session.try_lock(EXPORT, slots: n) }
      end
      assert_raises(Advlock::InvalidArgument, "shared slots") { session.try_lock(EXPORT, slots: 3, shared: true) }
      assert_empty pids_holding(EXPORT.slot(1)), "a refused lock leaves nothing behind"
      lock = session.try_lock(EXPORT, slots: 1) # slot 1, shared with holders counting more
      assert_equal 1, lock.slot
      assert_equal EXPORT.slot(1), lock.server_key
    end
  end
end
