# frozen_string_literal: true

require_relative "test_helper"

class LossTest < Minitest::Test
  include AdvlockTest

  def test_terminated_backend_means_lock_lost_and_on_lost
    told = Queue.new
    session = Advlock.connect(AdvlockTest.url, on_lost: ->(why) { told << why })
    lock = session.try_lock("doomed")
    refute session.lost?
    terminate(session.backend_pid)
    why = Timeout.timeout(30) { told.pop }
    assert_includes why, "terminat"
    assert session.lost?
    refute lock.held?
    error = assert_raises(Advlock::LockLost) { lock.ensure_held }
    assert_equal(-13, error.status)
    assert_raises(Advlock::LockLost) { session.try_lock("another") }
    assert_raises(Advlock::LockLost) { lock.release }
    session.close
    assert told.empty?
  end

  def test_loss_inside_with_lock_raises_at_the_end
    Advlock.connect(AdvlockTest.url) do |session|
      assert_raises(Advlock::LockLost) do
        session.with_lock!("work", timeout: 0) do
          terminate(session.backend_pid)
          wait_until("the watchdog") { session.lost? }
        end
      end
    end
  end
end
