# frozen_string_literal: true

require_relative "test_helper"
require "advlock/active_record"

# Threads of one process exclude each other through the drop-in, as they do
# with the gem (which gives each thread a pool connection of its own), though
# the drop-in takes every lock on one advlock session per process.
class ActiveRecordThreadsTest < Minitest::Test
  include AdvlockTest

  class Slot < ActiveRecord::Base; end

  def setup
    uri = URI.parse(AdvlockTest.url)
    ActiveRecord::Base.establish_connection(adapter: "postgresql", host: uri.host, port: uri.port,
                                            database: uri.path.delete_prefix("/"), username: uri.user,
                                            password: URI.decode_www_form_component(uri.password), pool: 12)
    Slot.connection.create_table(:slots, force: true) { |t| t.string :name } # no unique index: the lock must do it
  end

  def teardown
    Advlock::ActiveRecord.reset!
    ActiveRecord::Base.remove_connection
    super
  end

  def in_threads(count, &block)
    threads = Array.new(count) do |i|
      Thread.new { Slot.connection_pool.with_connection { block.call(i) } }
    end
    threads.map(&:value)
  end

  # The issue's Rails test: insert a row unless it exists, under the lock.
  def test_parallel_insert_if_absent_writes_each_row_once
    names = Array.new(10) { |i| "slot_#{i}" }
    in_threads(10) do
      names.each do |name|
        Slot.with_advisory_lock("insert_#{name}") { Slot.create!(name: name) unless Slot.exists?(name: name) }
        Slot.with_advisory_lock("insert_#{name}", timeout_seconds: 0) do
          Slot.create!(name: name) unless Slot.exists?(name: name)
        end
      end
    end
    assert_equal names, Slot.order(:name).pluck(:name)
  end

  def test_eight_waiting_threads_never_overlap
    counter = Mutex.new
    inside = 0
    most = 0
    runs = in_threads(8) do
      Array.new(25) do
        Slot.with_advisory_lock("overlap") do
          counter.synchronize { most = [most, inside += 1].max }
          Slot.connection.select_value("SELECT 1") # let the other threads run meanwhile
          counter.synchronize { inside -= 1 }
          :ran
        end
      end
    end
    assert_equal [:ran] * 200, runs.flatten
    assert_equal 1, most, "two threads were inside the block at once"
  end

  def test_a_try_fails_while_another_thread_holds_it
    held = Queue.new
    done = Queue.new
    holder = Thread.new do
      Slot.with_advisory_lock("busy") do
        held << true
        done.pop
      end
    end
    held.pop
    assert_equal false, Slot.with_advisory_lock("busy", timeout_seconds: 0) { flunk "ran" }
    refute Slot.with_advisory_lock_result("busy", timeout_seconds: 0) { flunk "ran" }.lock_was_acquired?
    done << true
    holder.join
    assert_equal :ran, Slot.with_advisory_lock("busy", timeout_seconds: 0) { :ran }
  end

  # A session waiting on the server is busy: were the drop-in's threads
  # sharing one, this thread's lock would wait until the other's wait ended.
  def test_a_thread_waiting_for_another_process_holds_up_no_other_thread
    key = Advlock::ActiveRecord.key_for("elsewhere")
    old = PG.connect(AdvlockTest.url)
    old.exec("SELECT pg_advisory_lock(#{key.k1}, #{key.k2})")
    waiter = Thread.new { Slot.connection_pool.with_connection { Slot.with_advisory_lock("elsewhere") { :finally } } }
    wait_until("the thread to wait on the server") do
      admin.exec("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = #{key.k1} " \
                 "AND objid = #{key.k2}").ntuples == 1
    end
    other = Thread.new do
      Slot.connection_pool.with_connection { Slot.with_advisory_lock("free", timeout_seconds: 0) { :ran } }
    end
    assert other.join(60), "another thread's lock waited for the server wait to end"
    assert_equal :ran, other.value
    old.close
    assert_equal :finally, waiter.value
  end

  # The thread's own shared lock does not keep its exclusive request out;
  # another thread's does.
  def test_exclusive_inside_shared_waits_only_for_other_threads
    upgraded = Slot.with_advisory_lock("report", shared: true) do
      Slot.with_advisory_lock("report", timeout_seconds: 0) { :write }
    end
    assert_equal :write, upgraded

    held = Queue.new
    done = Queue.new
    reader = Thread.new do
      Slot.with_advisory_lock("report", shared: true) do
        held << true
        done.pop
      end
    end
    held.pop
    result = Slot.with_advisory_lock_result("report", shared: true, timeout_seconds: 0) do
      Slot.with_advisory_lock("report", timeout_seconds: 0) { :write }
    end
    assert result.lock_was_acquired?, "shared and shared go together"
    assert_equal false, result.result, "the other thread's shared lock keeps the exclusive one out"
    done << true
    reader.join
  end

  # Two threads each holding the name shared and asking for it exclusive
  # would wait for each other for ever: the wait closing the cycle, whichever
  # it is, is a Deadlock, and the other upgrade goes on once that thread lets go.
  def test_two_upgrades_waiting_for_each_other_are_a_deadlock
    both_shared = Queue.new
    go = Queue.new
    threads = Array.new(2) do
      Thread.new do
        Slot.connection_pool.with_connection do
          Slot.with_advisory_lock("upgrade", shared: true) do
            both_shared << true
            go.pop
            Slot.with_advisory_lock("upgrade") { :upgraded }
          rescue Advlock::Deadlock
            :deadlock
          end
        end
      end
    end
    2.times { both_shared.pop }
    2.times { go << true }
    assert_equal %i[deadlock upgraded], threads.map(&:value).sort
  end
end
