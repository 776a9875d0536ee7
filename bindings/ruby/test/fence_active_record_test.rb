# frozen_string_literal: true

require_relative "test_helper"
require "active_record"

# Lock#check_fence on an ActiveRecord connection, inside Model.transaction.
class FenceActiveRecordTest < Minitest::Test
  include AdvlockTest

  KEY = Advlock::Key.pair(4301, 2)

  class Export < ActiveRecord::Base; end

  def setup
    uri = URI.parse(AdvlockTest.url)
    ActiveRecord::Base.establish_connection(adapter: "postgresql", host: uri.host, port: uri.port,
                                            database: uri.path.delete_prefix("/"), username: uri.user,
                                            password: URI.decode_www_form_component(uri.password))
    Export.connection.execute(Advlock.fence_sql)
  end

  def teardown
    ActiveRecord::Base.remove_connection
    super
  end

  def test_the_check_runs_inside_the_models_transaction
    Advlock.connect(AdvlockTest.url) do |first|
      Advlock.connect(AdvlockTest.url) do |nxt|
        lock = first.try_lock(KEY, fence: true)
        Export.transaction do
          # ActiveRecord begins its transaction lazily: had the check run
          # outside it, its row lock would be gone and the next holder in.
          lock.check_fence(Export.connection)
          lock.release
          assert_nil nxt.try_lock(KEY, fence: true), "the next token waits for the checked transaction"
        end
        assert nxt.try_lock(KEY, fence: true)
      end
    end
  end

  def test_a_stale_holder_is_fenced_out_and_its_transaction_rolled_back
    Advlock.connect(AdvlockTest.url) do |stale|
      Advlock.connect(AdvlockTest.url) do |nxt|
        lost = stale.try_lock(KEY, fence: true)
        terminate(stale.server_id)
        newer = nxt.lock(KEY, fence: true, timeout: 60)
        error = assert_raises(Advlock::FencedOut) { Export.transaction { lost.check_fence(Export.connection) } }
        assert_equal "55T01", error.sqlstate
        refute Export.connection.transaction_open?
        Export.transaction { newer.check_fence(Export.connection) }
      end
    end
  end

  def test_outside_a_transaction_is_misuse
    Advlock.connect(AdvlockTest.url) do |session|
      lock = session.try_lock(KEY, fence: true)
      error = assert_raises(Advlock::Misuse) { lock.check_fence(Export.connection) }
      assert_includes error.message, "Model.transaction"
    end
  end
end
