# frozen_string_literal: true

require_relative "test_helper"

# Fencing tokens: fence: true, Lock#fence_token and Lock#check_fence on a
# ruby-pg connection (fence_active_record_test.rb: on ActiveRecord's).
class FenceTest < Minitest::Test
  include AdvlockTest

  KEY = Advlock::Key.pair(4301, 1)

  def setup
    admin.exec("SET client_min_messages = warning") # "already exists, skipping" is no news
    admin.exec(Advlock.fence_sql) # idempotent
  end

  def job_connection = (@job = PG.connect(AdvlockTest.url))

  def teardown
    @job&.close
    super
  end

  def test_every_grant_issues_a_greater_token
    Advlock.connect(AdvlockTest.url) do |session|
      tokens = [session.with_lock!(KEY, fence: true, timeout: 0, &:fence_token),
                session.with_lock!(KEY, fence: true, &:fence_token),
                session.lock(KEY, fence: true).tap(&:release).fence_token]
      assert_equal tokens.sort, tokens
      assert_equal tokens.uniq, tokens, "strictly greater"
    end
  end

  def test_a_checked_transaction_holds_off_the_next_holder_until_it_commits
    Advlock.connect(AdvlockTest.url) do |first|
      Advlock.connect(AdvlockTest.url) do |nxt|
        job = job_connection
        lock = first.try_lock(KEY, fence: true)
        job.transaction do
          assert_nil lock.check_fence(job)
          lock.release
          assert_nil nxt.try_lock(KEY, fence: true), "the next token waits for the checked transaction"
        end
        newer = nxt.try_lock(KEY, fence: true)
        assert_operator newer.fence_token, :>, lock.fence_token
      end
    end
  end

  def test_a_holder_that_lost_the_lock_is_fenced_out
    Advlock.connect(AdvlockTest.url) do |stale|
      Advlock.connect(AdvlockTest.url) do |nxt|
        lost = stale.try_lock(KEY, fence: true)
        terminate(stale.server_id) # the server ends the session; the old job goes on
        newer = nxt.lock(KEY, fence: true, timeout: 60)
        job = job_connection
        job.exec("BEGIN")
        error = assert_raises(Advlock::FencedOut) { lost.check_fence(job) }
        assert_kind_of Advlock::LockLost, error
        assert_equal "55T01", error.sqlstate
        assert_kind_of PG::Error, error.cause
        job.exec("ROLLBACK")
        job.transaction { newer.check_fence(job) } # the new holder's own check passes
      end
    end
  end

  def test_misuse
    Advlock.connect(AdvlockTest.url) do |session|
      job = job_connection
      session.with_lock!(KEY, fence: true, timeout: 0) do |lock|
        error = assert_raises(Advlock::Misuse) { lock.check_fence(job) }
        assert_includes error.message, "idle, outside any transaction"
        job.exec("BEGIN")
        assert_raises(PG::Error) { job.exec("SELECT 1/0") }
        error = assert_raises(Advlock::Misuse) { lock.check_fence(job) }
        assert_includes error.message, "failed transaction"
        job.exec("ROLLBACK")
        assert_raises(Advlock::InvalidArgument) { lock.check_fence(Object.new) }
      end
      session.with_lock!(KEY, timeout: 0) do |plain|
        assert_raises(Advlock::Misuse) { plain.fence_token }
        job.transaction { assert_raises(Advlock::Misuse) { plain.check_fence(job) } }
      end
    end
  end

  def test_local_locks_cannot_be_fenced
    Dir.mktmpdir("advlock-fence-local") do |dir|
      Advlock.connect("local:#{dir}") do |session|
        assert_raises(Advlock::Unsupported) { session.try_lock(KEY, fence: true) }
        assert session.try_lock(KEY), "a refused fenced lock leaves nothing behind"
      end
    end
  end

  def test_the_check_statement_for_other_drivers
    Advlock.connect(AdvlockTest.url) do |session|
      session.with_lock!(KEY, fence: true, timeout: 0) do |lock|
        assert_includes lock.fence_check_sql, lock.fence_token.to_s
        job = job_connection
        job.transaction { job.exec(lock.fence_check_sql).clear }
      end
    end
  end
end
