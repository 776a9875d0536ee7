# frozen_string_literal: true

# A drop-in replacement for the with_advisory_lock gem, on advlock:
#
#   require "advlock/active_record"
#   Invoice.with_advisory_lock("daily_sales", timeout_seconds: 0) { run }   # false when held
#
# Same methods, options and keys as the gem, so old and new processes exclude
# each other during a rolling migration. On PostgreSQL the key of a name is
# [crc32(name) & 0x7fffffff, WITH_ADVISORY_LOCK_PREFIX & 0x7fffffff]; on
# MySQL/MariaDB (mysql2, trilogy) the lock is GET_LOCK's name
# "#{WITH_ADVISORY_LOCK_PREFIX}#{name}". The differences, on purpose, are in
# docs/migrating-from-with_advisory_lock.md: session locks live on advlock's
# own dedicated connection (not the pool), waits happen on the server (no
# polling), a lost lock raises LockLost instead of going on unprotected,
# advisory_lock_exists? never takes a trial lock.
require "active_record"
require "advlock"
require_relative "active_record/lock_url"
require_relative "active_record/session_pool"

module Advlock
  module ActiveRecord
    # What with_advisory_lock_result returns.
    Result = Struct.new(:lock_was_acquired, :result) do
      def lock_was_acquired? = lock_was_acquired
    end

    # The gem's environment variable: part of every key (PostgreSQL) or name (MySQL).
    PREFIX_ENV = "WITH_ADVISORY_LOCK_PREFIX"

    class << self
      # The lock session's URL; default: built from the model's database configuration.
      attr_accessor :url

      # The gem's lock string, "#{WITH_ADVISORY_LOCK_PREFIX}#{lock_name}":
      # GET_LOCK's name on MySQL, and what current_advisory_lock(s) answer.
      def lock_string(lock_name) = "#{ENV.fetch(PREFIX_ENV, nil)}#{lock_name}"

      # The key of a lock name, in the gem's scheme. PostgreSQL: a number is
      # its own first half (the gem's stable_hashcode), anything else crc32 of
      # its text; the prefix is the second half. mysql: the lock string as a
      # name (GET_LOCK locks the text itself).
      def key_for(lock_name, mysql: false)
        return Key.from_name(lock_string(lock_name)) if mysql

        prefix = ENV.fetch(PREFIX_ENV, nil).to_i
        return Key.pair(lock_name.to_i & 0x7fffffff, prefix & 0x7fffffff) if lock_name.is_a?(Numeric)

        Key.from_name_compat(lock_name.to_s, prefix)
      end

      # The URL the model's locks are taken on: url when set, else one built
      # from the model's database configuration (LockUrl).
      def lock_url(model) = url || LockUrl.for_config(model.connection_db_config.configuration_hash)

      # The process's lock sessions (SessionPool), made anew in a forked child
      # (a child must not share its parent's sockets).
      def pool
        @mutex ||= Mutex.new
        @mutex.synchronize do
          @pool = SessionPool.new if @pool.nil? || @pool.pid != Process.pid
          @pool
        end
      end

      # A lock session for the model's database: the one the calling thread
      # holds its locks on there, else one of the pool's (e.g. to ask who holds a lock).
      def session(model)
        url = lock_url(model)
        pool.current(url) || pool.with_session(url) { |session| session }
      end

      # Close the process's lock sessions (releasing their locks), e.g. in tests.
      def reset!
        current = @mutex&.synchronize { @pool.tap { @pool = nil } }
        current.close_all if current && current.pid == Process.pid
      end

      # What this thread holds, oldest first: [lock string, shared] pairs, as
      # the gem's lock stack (same string and mode again is re-entry). A thread
      # variable, not Thread.current[] (fiber-local): the gem's stack belongs
      # to the thread's pool connection, which the thread's fibers share.
      def held
        Thread.current.thread_variable_get(:advlock_active_record_locks) ||
          Thread.current.thread_variable_set(:advlock_active_record_locks, [])
      end
    end

    # The options the gem takes; any other raises ArgumentError, so a typo
    # (timeout: 0) cannot turn a try into a wait without end.
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

        raise NotAcquired, "with_advisory_lock!: could not acquire #{lock_name.inspect}"
      end

      # Result#lock_was_acquired? and Result#result.
      def with_advisory_lock_result(lock_name, options = {}, &block)
        options = { timeout_seconds: options } unless options.is_a?(Hash) # the gem's old positional timeout
        advlock_check_options(options)
        item = [Advlock::ActiveRecord.lock_string(lock_name), options[:shared] ? true : false]
        held = Advlock::ActiveRecord.held
        return Result.new(true, yield) if held.include?(item) # the same name and mode again: re-entry, as the gem
        # The gem cannot change the mode of a transaction lock it holds.
        return Result.new(false, false) if options[:transaction] && held.any? { |name, _| name == item[0] }

        return advlock_lock_and_yield(lock_name, item, options, &block) unless options[:disable_query_cache]

        uncached { advlock_lock_and_yield(lock_name, item, options, &block) }
      end

      # Whether any session holds the lock, from pg_locks (MySQL: what the
      # server shows of its holders): never by taking it.
      def advisory_lock_exists?(lock_name)
        key = advlock_key(lock_name)
        Advlock::ActiveRecord.pool.with_session(Advlock::ActiveRecord.lock_url(self)) do |session|
          session.holders(key).any?(&:granted)
        end
      end

      # The lock string (WITH_ADVISORY_LOCK_PREFIX and name) of the outermost
      # lock this thread holds, or nil (as the gem).
      def current_advisory_lock = Advlock::ActiveRecord.held.first&.first
      # The lock strings of the locks this thread holds, oldest first.
      def current_advisory_locks = Advlock::ActiveRecord.held.map(&:first)

      private

      def advlock_check_options(options)
        unknown = options.keys - Advlock::ActiveRecord::OPTIONS
        return if unknown.empty?

        raise ArgumentError, "with_advisory_lock: unknown option#{"s" if unknown.size > 1} " \
                             "#{unknown.map(&:inspect).join(", ")}; it takes " \
                             "#{Advlock::ActiveRecord::OPTIONS.map { |o| "#{o}:" }.join(", ")}"
      end

      def advlock_mysql? = LockUrl.mysql?(Advlock::ActiveRecord.lock_url(self))
      def advlock_key(lock_name) = Advlock::ActiveRecord.key_for(lock_name, mysql: advlock_mysql?)

      def advlock_lock_and_yield(lock_name, item, options)
        advlock_check_mysql_options(options) if advlock_mysql?
        key = advlock_key(lock_name)
        if options[:transaction]
          return Result.new(false, false) unless advlock_transaction_lock(key, options)

          return with_item_held(item) { Result.new(true, yield) }
        end
        Advlock::ActiveRecord.pool.with_session(Advlock::ActiveRecord.lock_url(self)) do |session|
          # Interrupts reach the wait and the block, never the hand-over (Session#holding).
          Thread.handle_interrupt(Object => :never) do
            lock = advlock_session_lock(session, key, options)
            next Result.new(false, false) if lock.nil?

            Result.new(true, session.holding(lock) { with_item_held(item) { yield } })
          end
        end
      end

      # The gem's own refusals on MySQL, with its exception class.
      def advlock_check_mysql_options(options)
        raise ArgumentError, "shared locks are not supported on MySQL" if options[:shared]
        raise ArgumentError, "transaction level locks are not supported on MySQL" if options[:transaction]
      end

      def with_item_held(item)
        held = Advlock::ActiveRecord.held
        held.push(item)
        yield
      ensure
        held.delete_at(held.rindex(item))
      end

      def advlock_session_lock(session, key, options)
        # reentrant: the thread is the owner, as with the gem's per-thread
        # connection: its own shared lock does not keep out its exclusive
        # request (other owners' do).
        session.lock(key, timeout: options[:timeout_seconds], shared: options[:shared] ? true : false,
                          reentrant: true)
      rescue NotAcquired
        nil
      end

      # transaction: true — on this model's own connection, inside its open transaction.
      def advlock_transaction_lock(key, options)
        unless connection.transaction_open?
          raise Misuse, "with_advisory_lock(transaction: true) needs an open transaction " \
                        "(wrap it in #{name}.transaction { ... })"
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
          raise Unsupported, "with_advisory_lock(transaction: true) takes timeout_seconds: 0 (try) or nil " \
                             "(wait); a timed wait would need a savepoint in your transaction"
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
