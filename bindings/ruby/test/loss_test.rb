# frozen_string_literal: true

require_relative "test_helper"
require "timeout"

class LossTest < Minitest::Test
  include AdvlockTest

  def test_terminated_backend_means_lock_lost_and_on_lost
    told = Queue.new
    session = Advlock.connect(AdvlockTest.url, on_lost: ->(why) { told << why })
    lock = session.try_lock("doomed")
    refute session.lost?
    terminate(session.server_id)
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
          terminate(session.server_id)
          wait_until("the watchdog") { session.lost? }
        end
      end
    end
  end

  # Blocks given after the loss are called too (each once), from a new
  # watcher thread that finds the C library's loss fd readable at once.
  def test_on_lost_after_the_loss
    session = Advlock.connect(AdvlockTest.url)
    session.try_lock("doomed_late")
    terminate(session.server_id)
    wait_until("the watchdog") { session.lost? }
    told = Queue.new
    session.on_lost { |why| told << [:first, why] }
    first = Timeout.timeout(30) { told.pop }
    session.on_lost { |why| told << [:second, why] }
    second = Timeout.timeout(30) { told.pop }
    assert_equal %i[first second], [first[0], second[0]]
    assert_includes second[1], "terminat"
    session.close
    assert told.empty?, "each block once"
    assert_raises(Advlock::Misuse) { session.on_lost { flunk "closed" } }
  end

  # Closing makes the loss fd readable too: the watcher ends, telling no one,
  # and close returns only once it has.
  def test_close_ends_the_watcher_without_telling_the_blocks
    watchers = -> { Thread.list.count { |t| t.name == "advlock on_lost" && t.alive? } }
    before = watchers.call
    told = Queue.new
    session = Advlock.connect(AdvlockTest.url, on_lost: ->(why) { told << why })
    session.try_lock("closed_not_lost")
    assert_equal before + 1, watchers.call
    session.close
    assert_equal before, watchers.call
    assert told.empty?
    assert session.closed?
  end
end
