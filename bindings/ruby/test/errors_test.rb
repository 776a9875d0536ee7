# frozen_string_literal: true

require_relative "test_helper"

# The exception classes come from the C library's status table at load time:
# every status has its class, under the class of its parent, and maps back.
class ErrorsTest < Minitest::Test
  def rows = Advlock::Native.status_table.to_a

  def test_every_status_has_its_class
    assert_operator rows.size, :>=, 24
    rows.each do |row|
      next if row.kind == "ok" # success: nothing to raise

      error_class = Advlock.const_get(row.class_name, false)
      parent = { "error" => Advlock::Error, "none" => Advlock::Error, "unsafe_target" => Advlock::UnsafeTarget }
               .fetch(row.parent) { Advlock.const_get(rows.find { |r| r.kind == row.parent }.class_name, false) }
      assert_equal parent, error_class.superclass, row.name
      assert_equal row.status, error_class.status, row.name
      assert_equal row.summary, error_class.summary, row.name
      error = Advlock::Error.for_status(row.status, "message", "")
      assert_instance_of error_class, error, row.name
      assert_equal row.status, error.status
      assert_equal row.name, error.status_name
      assert_equal row.status, error_class.new("made in Ruby").status, row.name
    end
  end

  def test_no_class_without_a_status
    table = rows.map(&:class_name)
    error_classes = Advlock.constants.map { |name| Advlock.const_get(name) }
                           .select { |c| c.is_a?(Class) && c < Advlock::Error }
    extra = error_classes.map { |c| c.name.delete_prefix("Advlock::") } - table - ["UnsafeTarget"]
    assert_empty extra, "classes no status stands for"
  end

  def test_the_classes_callers_rescue
    assert_operator Advlock::LockLost, :<, Advlock::Error
    assert_operator Advlock::NotAcquired, :<, Advlock::Error
    %w[StandbyTarget ReadOnlyTarget PoolerTarget ClusterTarget UnsafeLockDirectory].each do |name|
      assert_operator Advlock.const_get(name), :<, Advlock::UnsafeTarget, name
    end
    assert_equal "ADVLOCK_ELOST", Advlock::LockLost.status_name
    assert_equal(-13, Advlock::LockLost.status) # pinned in advlock.h
    assert_operator Advlock::FencedOut, :<, Advlock::LockLost # a job stopping on a loss stops on this too
    assert_equal "ADVLOCK_EFENCED", Advlock::FencedOut.status_name
  end

  def test_an_unknown_status_is_an_error_still
    error = Advlock::Error.for_status(-999, "from a newer library", "")
    assert_instance_of Advlock::Error, error
    assert_equal(-999, error.status)
    assert_nil error.status_name
  end

  def test_sqlstates_of_sql_run_through_another_driver
    { "40P01" => Advlock::Deadlock, "53200" => Advlock::CapacityError, "55P03" => Advlock::NotAcquired,
      "42501" => Advlock::PermissionDenied, "XX000" => Advlock::ServerError,
      "55T01" => Advlock::FencedOut }.each do |sqlstate, error_class|
      error = Advlock::Error.for_sqlstate(sqlstate, "from ActiveRecord")
      assert_instance_of error_class, error, sqlstate
      assert_equal sqlstate, error.sqlstate
    end
  end
end
