# frozen_string_literal: true

require_relative "test_helper"

# One lock, one owner (advlock.h): threads sharing one Session exclude each
# other; re-entry only when asked for (reentrant: true, per thread).
class OwnersTest < Minitest::Test
  include AdvlockTest

  def test_eight_threads_sharing_a_session_never_overlap
    Advlock.connect(AdvlockTest.url) do |session|
      counter = Mutex.new
      inside = 0
      most = 0
      threads = Array.new(8) do
        Thread.new do
          Array.new(25) do
            session.with_lock!("shared_session_counter") do
              counter.synchronize { most = [most, inside += 1].max }
              Thread.pass
              counter.synchronize { inside -= 1 }
            end
          end
        end
      end
      threads.each(&:join)
      assert_equal 1, most, "two threads held the lock at once"
    end
  end

  def test_a_thread_reenters_only_when_asked
    Advlock.connect(AdvlockTest.url) do |session|
      first = session.lock("reentry")
      assert_nil session.try_lock("reentry"), "a second handle is a second owner"
      assert_raises(Advlock::Deadlock) { session.lock("reentry") }
      first.release

      outer = session.lock("reentry", reentrant: true)
      inner = session.lock("reentry", reentrant: true)
      other = Thread.new { session.try_lock("reentry", reentrant: true) }.value
      assert_nil other, "another thread is another owner, reentrant or not"
      inner.release
      assert outer.held?
      outer.release
      Advlock.connect(AdvlockTest.url) { |elsewhere| refute_nil elsewhere.try_lock("reentry") }
    end
  end
end
