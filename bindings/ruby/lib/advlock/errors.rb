# frozen_string_literal: true

module Advlock
  # Base of every advlock error. Each subclass stands for one outcome a caller
  # may need to tell apart; rescue the class, never parse the message.
  # #status is the C ABI's status code, #sqlstate the server's code or "".
  class Error < StandardError
    attr_reader :status, :sqlstate

    def initialize(message = nil, status: nil, sqlstate: "")
      super(message)
      @status = status || self.class.status
      @sqlstate = sqlstate
    end

    # The status's name in advlock.h ("ADVLOCK_ELOST"), or nil.
    def status_name = Error::BY_STATUS[status]&.status_name

    class << self
      # The C ABI's status this class stands for, its name in advlock.h, its
      # kind (lock_lost) and its one-line summary, from the status table; nil
      # for the bases (Error, UnsafeTarget), which stand for no one status.
      attr_reader :status, :status_name, :kind, :summary

      # The exception for a status; the native extension calls this.
      def for_status(status, message, sqlstate)
        (BY_STATUS[status] || Error).new(message, status: status, sqlstate: sqlstate)
      end

      # The exception a server error with this SQLSTATE means, for SQL run
      # through another driver (ActiveRecord, ruby-pg), as advlock maps its own.
      def for_sqlstate(sqlstate, message)
        for_status(Native.status_from_sqlstate(sqlstate.to_s), message, sqlstate.to_s)
      end

      # @api private: one class per row of the status table.
      def define_status(row)
        @status = row.status
        @status_name = row.name
        @kind = row.kind
        @summary = row.summary
        self
      end
    end
  end

  # The server is one where locks would exclude no one (a standby, a pooler, a
  # read-only server, a node of a multi-primary cluster, an unsafe lock
  # directory); refused unless opted in. The base of those classes.
  class UnsafeTarget < Error; end

  # The classes come from the C library's status table (advlock/status_table.h),
  # so no status number is restated here: the class is the table's class_name
  # (LockLost), derived from its parent's class. "none" is an outcome that is
  # not an error in C (NotAcquired), which Ruby raises as an Error all the same
  # (with_lock!, lock); ADVLOCK_OK is success and has no class. A parent may
  # also be another status's kind, a class made from an earlier row
  # (lock_lost: FencedOut < LockLost, so rescuing a loss rescues a fenced-out
  # job too).
  PARENTS = { "error" => Error, "unsafe_target" => UnsafeTarget, "none" => Error }.freeze
  private_constant :PARENTS

  Error::BY_STATUS = Native.status_table.each_with_object({}) do |row, by_status|
    next if row.kind == "ok"

    parent = PARENTS[row.parent] || by_status.values.find { |c| c.kind == row.parent } or
      raise LoadError, "advlock: status #{row.name} derives from #{row.parent.inspect}, " \
                       "which the Ruby binding does not know (add it to PARENTS in #{__FILE__})"
    by_status[row.status] = const_set(row.class_name, Class.new(parent)).define_status(row)
  end.freeze
end
