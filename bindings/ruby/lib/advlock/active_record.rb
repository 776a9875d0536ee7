# frozen_string_literal: true

# A drop-in replacement for the with_advisory_lock gem, on advlock:
#
#   require "advlock/active_record"
#   Invoice.with_advisory_lock("daily_sales", timeout_seconds: 0) { run }   # false when held
#
# Same methods, options and keys as the gem (the key of a name is
# [crc32(name) & 0x7fffffff, WITH_ADVISORY_LOCK_PREFIX & 0x7fffffff]), so old
# and new processes exclude each other during a rolling migration. The
# differences, on purpose, are in docs/migrating-from-with_advisory_lock.md:
# session locks live on advlock's own dedicated connection (not the pool),
# waits happen on the server (no polling), a lost lock raises LockLost instead
# of going on unprotected, advisory_lock_exists? never takes a trial lock.
require "active_record"
require "advlock"

module Advlock
  module ActiveRecord
    # What with_advisory_lock_result returns.
    Result = Struct.new(:lock_was_acquired, :result) do
      def lock_was_acquired? = lock_was_acquired
    end

    class << self
      # The lock session's URL; default: built from the model's database configuration.
      attr_accessor :url

      # The key of a lock name, in the gem's scheme: a number is its own
      # first half (the gem's stable_hashcode), anything else crc32 of its text.
      def key_for(lock_name)
        prefix = ENV.fetch("WITH_ADVISORY_LOCK_PREFIX", "0").to_i
        return Key.pair(lock_name.to_i & 0x7fffffff, prefix & 0x7fffffff) if lock_name.is_a?(Numeric)

        Key.from_name_compat(lock_name.to_s, prefix)
      end

      # The process's lock session: one dedicated connection, opened on first
      # use and again in a forked child (a child must not share its parent's socket).
      def session(model)
        @mutex ||= Mutex.new
        @mutex.synchronize do
          if @session.nil? || @session.closed? || @pid != Process.pid
            @session = Advlock::Session.new(url || conninfo(model), application_name: "advlock-active_record")
            @pid = Process.pid
          end
          @session
        end
      end

      # Close the process's lock session (releasing its locks), e.g. in tests.
      def reset!
        @session&.close unless @pid != Process.pid
        @session = nil
      end

      # Names held by this thread, oldest first.
      def held_names = (Thread.current[:advlock_active_record_locks] ||= [])

      private

      def conninfo(model)
        config = model.connection_db_config.configuration_hash
        {
          host: config[:host], port: config[:port], dbname: config[:database], user: config[:username],
          password: config[:password], sslmode: config[:sslmode]
        }.compact.map { |name, value| "#{name}='#{value.to_s.gsub(/['\\]/) { |c| "\\#{c}" }}'" }.join(" ")
      end
    end

    # The options the gem takes; any other raises ArgumentError, so a typo
    # (timeout: 0) cannot turn a try into a wait without end.
    # (disable_query_cache: is accepted and not acted on yet.)
    OPTIONS = %i[timeout_seconds shared transaction disable_query_cache].freeze

    # The class methods the gem adds to ActiveRecord::Base.
    module Methods
      # Runs the block holding the lock; its value, or false when the lock was not acquired.
      def with_advisory_lock(lock_name, options = {}, &block)
        result = with_advisory_lock_result(lock_name, options, &block)
        result.lock_was_acquired? ? result.result : false
      end

      # As with_advisory_lock, but raises Advlock::NotAcquired when the lock was not acquired.
      def with_advisory_lock!(lock_name, options = {}, &block)
        result = with_advisory_lock_result(lock_name, options, &block)
        return result.result if result.lock_was_acquired?

        raise NotAcquired.new("with_advisory_lock!: could not acquire #{lock_name.inspect}", status: 1)
      end

      # Result#lock_was_acquired? and Result#result.
      def with_advisory_lock_result(lock_name, options = {}, &block)
        options = { timeout_seconds: options } unless options.is_a?(Hash)  # the gem's old positional timeout
        advlock_check_options(options)
        name = lock_name.to_s
        held = Advlock::ActiveRecord.held_names
        return Result.new(true, yield) if held.include?(name) # re-entrant, as the gem

        key = Advlock::ActiveRecord.key_for(lock_name)
        if options[:transaction]
          return Result.new(false, false) unless advlock_transaction_lock(key, options)

          return with_name_held(name) { Result.new(true, yield) }
        end
        lock = advlock_session_lock(key, options)
        return Result.new(false, false) if lock.nil?

        begin
          value = with_name_held(name) { yield }
        rescue Exception # rubocop:disable Lint/RescueException -- release, then re-raise whatever it was
          lock.release if lock.held?
          raise
        end
        lock.release # raises Advlock::LockLost when the lock was lost meanwhile
        Result.new(true, value)
      end

      # Whether any session holds the lock, from pg_locks: never by taking it.
      def advisory_lock_exists?(lock_name)
        key = Advlock::ActiveRecord.key_for(lock_name)
        Advlock::ActiveRecord.session(self).holders(key).any?(&:granted)
      end

      # The name of the outermost lock this thread holds, or nil (as the gem).
      def current_advisory_lock = Advlock::ActiveRecord.held_names.first
      # Names of the locks this thread holds.
      def current_advisory_locks = Advlock::ActiveRecord.held_names.dup

      private

      def advlock_check_options(options)
        unknown = options.keys - Advlock::ActiveRecord::OPTIONS
        return if unknown.empty?

        raise ArgumentError, "with_advisory_lock: unknown option#{"s" if unknown.size > 1} " \
                             "#{unknown.map(&:inspect).join(", ")}; it takes " \
                             "#{Advlock::ActiveRecord::OPTIONS.map { |o| "#{o}:" }.join(", ")}"
      end

      def with_name_held(name)
        held = Advlock::ActiveRecord.held_names
        held.push(name)
        yield
      ensure
        held.delete_at(held.rindex(name))
      end

      def advlock_session_lock(key, options)
        session = Advlock::ActiveRecord.session(self)
        session.lock(key, timeout: options[:timeout_seconds], shared: options[:shared] ? true : false)
      rescue NotAcquired
        nil
      end

      # transaction: true — on this model's own connection, inside its open transaction.
      def advlock_transaction_lock(key, options)
        unless connection.transaction_open?
          raise Misuse.new("with_advisory_lock(transaction: true) needs an open transaction " \
                           "(wrap it in #{name}.transaction { ... })", status: -8)
        end
        timeout = options[:timeout_seconds]
        shared = options[:shared] ? true : false
        if timeout.nil?
          # execute, not select_value: pg_advisory_xact_lock returns void
          # (OID 2278), for which ActiveRecord would warn on stderr each time.
          connection.execute(key.sql(:xact_lock, shared: shared)).clear
          return true
        end
        unless timeout.zero?
          raise Unsupported.new("with_advisory_lock(transaction: true) takes timeout_seconds: 0 (try) or nil " \
                                "(wait); a timed wait would need a savepoint in your transaction", status: -19)
        end
        answer = connection.select_value(key.sql(:try_xact_lock, shared: shared))
        key.sql_result(:try_xact_lock, [true, "t"].include?(answer))
      end
    end
  end
end

module Advlock
  module ActiveRecord
    # The instance methods the gem adds: record.with_advisory_lock(...) is the
    # model's with_advisory_lock(...).
    module InstanceMethods
      %i[with_advisory_lock with_advisory_lock! with_advisory_lock_result advisory_lock_exists?].each do |method|
        define_method(method) { |*args, **options, &block| self.class.public_send(method, *args, **options, &block) }
      end
    end
  end
end

ActiveSupport.on_load(:active_record) do
  extend Advlock::ActiveRecord::Methods
  include Advlock::ActiveRecord::InstanceMethods
end
# Code that rescues the gem's exception keeps working.
module WithAdvisoryLock
  FailedToAcquireLock = Advlock::NotAcquired unless const_defined?(:FailedToAcquireLock)
end
