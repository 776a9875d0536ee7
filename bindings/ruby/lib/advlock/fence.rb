# frozen_string_literal: true

module Advlock
  # The statements that create the table public.advlock_fence and its
  # functions, once per database (idempotent; what `advlock sql fence` prints).
  def self.fence_sql = Native.fence_sql

  # Lock#check_fence: the C library's statement for the lock's key and token
  # (advlock_fence_check_sql), run on the job's own connection by its own
  # driver, the failure's SQLSTATE mapped by the C library
  # (advlock_status_from_sqlstate: 55T01 is FencedOut). Neither pg nor
  # ActiveRecord is required here: the connection's class says which it is.
  module Fence
    class << self
      def check(connection, lock)
        token = lock.fence_token # Misuse before any round trip when there is none
        key = lock.server_key
        sql = key.fence_check_sql(token)
        what = "the fence check of lock #{key} (token #{token})"
        if defined?(::PG::Connection) && connection.is_a?(::PG::Connection)
          check_pg(connection, sql, what)
        elsif active_record?(connection)
          check_active_record(connection, sql, what)
        else
          raise InvalidArgument, "check_fence takes a PG::Connection or an ActiveRecord connection " \
                                 "(Model.connection), got #{connection.class}"
        end
        nil
      end

      private

      def check_pg(connection, sql, what)
        state = connection.transaction_status
        unless state == ::PG::PQTRANS_INTRANS
          raise Misuse, "advlock: #{what} needs the job's open transaction on that connection, but it is " \
                        "#{pg_state(state)} (the check would end with its own " \
                        "statement and could not hold off the next holder): run it inside " \
                        "conn.transaction { ... }, before the commit"
        end
        begin
          connection.exec(sql).clear
        rescue ::PG::Error => e
          raise translated(e, what)
        end
      end

      # Why a PG::Connection is not inside a usable transaction.
      def pg_state(state)
        case state
        when ::PG::PQTRANS_IDLE then "idle, outside any transaction"
        when ::PG::PQTRANS_ACTIVE then "busy running a command"
        when ::PG::PQTRANS_INERROR then "in a failed transaction (roll it back)"
        else "not connected"
        end
      end

      def check_active_record(connection, sql, what)
        unless connection.transaction_open?
          raise Misuse, "advlock: #{what} needs an open transaction on that connection (the check would " \
                        "end with its own statement): run it inside Model.transaction { ... }"
        end
        begin
          # Through ActiveRecord (execute): it sends a lazily begun
          # transaction's BEGIN first, so the check runs inside it, and
          # raw_connection would turn the adapter's lazy transactions off.
          result = connection.execute(sql)
          result.clear if result.respond_to?(:clear)
        rescue ::ActiveRecord::StatementInvalid => e
          raise translated(e.cause || e, what)
        end
      end

      def active_record?(connection)
        defined?(::ActiveRecord::ConnectionAdapters::AbstractAdapter) &&
          connection.is_a?(::ActiveRecord::ConnectionAdapters::AbstractAdapter)
      end

      # The advlock error the failure's SQLSTATE means; "" (a server error)
      # when the driver gave none.
      def translated(error, what)
        result = error.respond_to?(:result) ? error.result : nil
        sqlstate = result&.error_field(::PG::Result::PG_DIAG_SQLSTATE).to_s
        Error.for_sqlstate(sqlstate, "advlock: #{what}: #{error.message.strip}")
      end
    end
  end
end
