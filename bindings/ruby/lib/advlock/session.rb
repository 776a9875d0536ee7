# frozen_string_literal: true

module Advlock
  # A session holding or waiting for an advisory lock, from pg_locks and pg_stat_activity.
  # server_id: the server's id for that session (pg_backend_pid(), MySQL's connection id).
  Holder = Struct.new(:key, :name, :shared, :granted, :server_id, :is_self, :user, :application_name,
                      :client_addr, :backend_start, :wait_start, :details_hidden, keyword_init: true)

  # What Session#holders answers: the Holders the server showed, and #note,
  # what it could not show ("" when it showed everything: MariaDB lists no
  # waiters; without metadata_lock_info or performance_schema only the
  # registry's locks and the one asked for are looked up).
  class Holders < Array
    attr_reader :note

    def initialize(rows, note)
      super(rows)
      @note = note
      freeze
    end
  end

  # One dedicated database connection that holds locks (never pooled).
  # Closing it releases every lock it holds. Threads may share it: their
  # Locks exclude each other as sessions do (one lock, one owner), and their
  # calls are serialised on its one connection, which a wait on the server
  # keeps busy until it ends (a wait for another Lock of the session does
  # not). Waits run without the GVL; Thread#raise, Thread#kill, Ctrl-C and
  # Timeout end the waiting thread's wait only, and never leave a lock behind.
  # Any thread may close it, ending the others' waits; every call afterwards
  # raises Misuse (the C library keeps that state, not this class).
  #
  # heartbeat_interval:, heartbeat_deadline: (seconds; nil or 0: 2 and 3) the
  # watchdog's heartbeat, and how long it waits for the answer before it
  # declares the locks lost. stop_grace: (seconds; nil or 0: 10) how long,
  # after a loss is reported (on_lost, LockLost), the holder may still be
  # working under the lock: the server frees a silent client's locks only
  # after heartbeat interval + deadline + stop grace + 3 s, so that a job
  # that stops within its stop grace has stopped before anyone else can
  # start. Each at most 3600 (InvalidArgument).
  class Session
    # Thread.handle_interrupt's masks, made once: a new Hash for each in every
    # call was a measurable share of a try_lock + release cycle.
    DEFER_INTERRUPTS = { Object => :never }.freeze
    INTERRUPTS_WHILE_BLOCKING = { Object => :on_blocking }.freeze
    INTERRUPTS_AT_ONCE = { Object => :immediate }.freeze
    private_constant :DEFER_INTERRUPTS, :INTERRUPTS_WHILE_BLOCKING, :INTERRUPTS_AT_ONCE

    attr_reader :registry

    def initialize(url, application_name: nil, allow_standby: false, allow_pooler: false,
                   heartbeat_interval: nil, heartbeat_deadline: nil, stop_grace: nil, registry: nil)
      options = Native::NativeSessionOptions.new
      options.application_name = application_name.to_s
      options.allow_standby = allow_standby
      options.allow_pooler = allow_pooler
      options.heartbeat_interval_ms = milliseconds(heartbeat_interval, "heartbeat_interval") || 0
      options.heartbeat_deadline_ms = milliseconds(heartbeat_deadline, "heartbeat_deadline") || 0
      options.stop_grace_ms = milliseconds(stop_grace, "stop_grace") || 0
      @registry = registry.is_a?(String) || registry.is_a?(Pathname) ? Registry.open(registry) : registry
      InterruptRelay.ensure_running
      @native = Native::NativeSession.open(url.to_s, options)
      @lost_blocks = []
      @mutex = Mutex.new
    end

    # One lock, one owner: every Lock is an owner, as every session is on the
    # server, so threads sharing this session exclude each other; a thread
    # waiting for a Lock it holds itself raises Deadlock at once. reentrant:
    # true makes the calling thread's reentrant Locks on this session one
    # owner: it may take again a lock it holds through them (each Lock
    # releases once), and take exclusive while holding shared when no other
    # owner holds the key.
    #
    # slots: N (1..64) takes any one free slot of N, "at most N at once"
    # (Lock#slot says which; Key#slot(n) is each slot's key); a try tries
    # every slot, a wait waits for the first to free. nil (the default) or
    # 1: the key itself. Exclusive only.
    # fence: true issues a fencing token with the grant (Lock#fence_token),
    # which the job checks in its own transaction before committing
    # (Lock#check_fence). PostgreSQL only (Unsupported elsewhere), exclusive,
    # not reentrant.

    # A Lock, or nil when another session (or another owner on this one) holds it.
    def try_lock(key, shared: false, reentrant: false, slots: nil, fence: false)
      take(key, shared, 0, reentrant, slots, fence)
    end

    # Take the lock, waiting up to timeout seconds (nil: as long as it takes):
    # on the server for other sessions, in the process for other owners of
    # this one. Raises NotAcquired when the time runs out.
    def lock(key, timeout: nil, shared: false, reentrant: false, slots: nil, fence: false)
      ms = timeout.nil? ? -1 : milliseconds(timeout, "timeout")
      take(key, shared, ms, reentrant, slots, fence) or
        raise NotAcquired, "lock #{Key.coerce(key, @registry)} is held by another owner" \
                           "#{ms.zero? ? ' (timeout: 0, no wait)' : "; gave up after #{timeout} s"}"
    end

    # Runs the block holding the lock and returns its value; false when the
    # lock could not be taken within timeout (nil: wait as long as it takes).
    def with_lock(key, timeout: nil, shared: false, reentrant: false, slots: nil, fence: false, &block)
      with_lock!(key, timeout: timeout, shared: shared, reentrant: reentrant, slots: slots, fence: fence, &block)
    rescue NotAcquired
      false
    end

    # As with_lock, but raises NotAcquired instead of returning false.
    def with_lock!(key, timeout: nil, shared: false, reentrant: false, slots: nil, fence: false, &block)
      Thread.handle_interrupt(DEFER_INTERRUPTS) do
        holding(lock(key, timeout: timeout, shared: shared, reentrant: reentrant, slots: slots, fence: fence), &block)
      end
    end

    # Sets of locks, all or nothing, for a job that needs "daily_sales" and
    # "inventory" at once: keys is an Array of what try_lock takes (a pair key
    # in it is [k1, k2]: [[100, 1], [100, 2]]), each lock once. Every set is
    # taken in one order (ascending by key) whatever the order of keys, so
    # jobs waiting for overlapping sets never deadlock each other; a job that
    # also takes single locks while holding a set keeps to that order itself.
    # shared: and reentrant: as for one lock; no slots: or fence:. One round
    # trip on PostgreSQL whatever the number of keys.

    # A LockSet holding every key, or nil, with none of them held, when any is
    # held by another session or another owner on this one.
    def try_lock_all(keys, shared: false, reentrant: false)
      take_all(key_list(keys), shared, 0, reentrant)
    end

    # Take every lock of the set, waiting up to timeout seconds (nil: as long
    # as it takes) until all are held at once. The wait takes them in the
    # set's order, so it may hold the first while it waits for a later one;
    # a wait that fails keeps none. Raises NotAcquired when the time runs
    # out, and otherwise as lock does (Deadlock, Misuse once closed).
    def lock_all(keys, timeout: nil, shared: false, reentrant: false)
      ms = timeout.nil? ? -1 : milliseconds(timeout, "timeout")
      set = key_list(keys)
      take_all(set, shared, ms, reentrant) or
        raise NotAcquired, "lock #{LockSet.label(set)}: not all of them were free at once (none is held now)" \
                           "#{ms.zero? ? ' (timeout: 0, no wait)' : "; gave up after #{timeout} s"}"
    end

    # with_lock for a set: runs the block holding every lock (yields the
    # LockSet) and returns its value; false when they could not all be taken
    # within timeout.
    def with_locks(keys, timeout: nil, shared: false, reentrant: false, &block)
      with_locks!(keys, timeout: timeout, shared: shared, reentrant: reentrant, &block)
    rescue NotAcquired
      false
    end

    # As with_locks, but raises NotAcquired instead of returning false.
    def with_locks!(keys, timeout: nil, shared: false, reentrant: false, &block)
      Thread.handle_interrupt(DEFER_INTERRUPTS) do
        holding(lock_all(keys, timeout: timeout, shared: shared, reentrant: reentrant), &block)
      end
    end

    # @api private
    # Runs the block with held (a Lock or a LockSet) and releases it
    # afterwards, whatever happens: an interrupt (Thread#raise, Ctrl-C,
    # Timeout) reaches the block, never the moment between the block and the
    # release. Take held under Thread.handle_interrupt(Object => :never), so
    # that none lands between the grant and this either (the wait itself
    # stays interruptible).
    def holding(held)
      Thread.handle_interrupt(DEFER_INTERRUPTS) do
        begin
          result = Thread.handle_interrupt(INTERRUPTS_AT_ONCE) { yield held }
        rescue Exception # rubocop:disable Lint/RescueException -- release, then re-raise whatever it was
          held.release if held.held?
          raise
        end
        held.release # raises LockLost when the lock was lost meanwhile
        result
      end
    end

    def cancel = @native.cancel
    # No round trip: raises LockLost once the session's locks are known lost,
    # Misuse once the session is closed.
    def check = @native.check
    def lost?
      check
      false
    rescue LockLost
      true
    end

    # One round trip proving this is still the session that took its locks.
    def verify = @native.verify
    # The server's id for this session: pg_backend_pid() on PostgreSQL, the
    # connection id on MySQL/MariaDB (64-bit there).
    def server_id = @native.server_id

    # Who holds or waits for advisory locks (only key's when given), never by
    # locking: pg_locks on PostgreSQL; on MySQL/MariaDB what the server can
    # show, with Holders#note saying what it could not.
    def holders(key = nil)
      only = key.nil? ? nil : Key.coerce(key, @registry)
      list = if only
               only.with_native { |k| @native.holders(@registry&.native, k) }
             else
               @native.holders(@registry&.native, nil)
             end
      Holders.new(list.rows.map { |h| holder(h) }, list.note)
    end

    # Call the block with why, once, when the session's locks are lost (from a
    # thread of the binding's own, never the thread doing the work); at once
    # (from that thread) when they already are. Raises Misuse once closed.
    def on_lost(&block)
      raise ArgumentError, "on_lost needs a block" unless block

      lost? # raises Misuse once closed
      @mutex.synchronize do
        @lost_blocks << block
        @lost_watcher ||= Thread.new { watch_for_loss }.tap { |thread| thread.name = "advlock on_lost" }
      end
      self
    end

    # Whether the session was closed (by any thread), as the C library says.
    def closed?
      @native.check
      false
    rescue Misuse
      true
    rescue LockLost
      false
    end

    # Close the connection, releasing every lock; safe twice, from any thread:
    # waits in progress on other threads end (Misuse: "closed during the
    # wait") and every later call raises Misuse. Returns once the on_lost blocks are done, so none runs
    # after close (unless close is called from one of them). The native
    # session itself is freed by the garbage collector only, as a thread may
    # still be returning from a call on it.
    def close
      @native.close
      watcher = @mutex.synchronize { @lost_watcher }
      watcher.join if watcher && watcher != Thread.current
      nil
    end

    private

    # A Lock, or nil. The native acquire gets nil for its cancel token, so
    # advlock_ruby.i gives each wait a token of its own, and an interrupt
    # ends this thread's wait only.
    def take(key, shared, timeout_ms, reentrant, slots, fence)
      k = Key.coerce(key, @registry)
      slot_count = slots.nil? ? 0 : Key.slot_number(slots, "slots")
      if timeout_ms.zero? && slot_count.zero? && !fence
        # A plain try, the usual call: in one native call (advlock_ruby.i,
        # advlock_try_lock_held), false when it leaves the work to the full path.
        InterruptRelay.ensure_running
        held = Native.try_lock_held(self, @native, k, shared, reentrant ? true : false, Lock)
        return held unless held == false
      end
      handed_over(Lock, k, shared) do
        k.with_native do |nk|
          @native.acquire(nk, shared, timeout_ms, reentrant ? true : false, nil, slot_count, fence ? true : false)
        end
      end
    end

    # A LockSet of keys (Keys, from key_list), or nil, as take takes one
    # lock. The keys go in a Native::KeyVector, which Ruby owns: a Ruby Array
    # would be converted to a C++ vector inside the call, and leaked when the
    # call raises (a longjmp runs no destructor).
    def take_all(keys, shared, timeout_ms, reentrant)
      natives = Native::KeyVector.new(keys.map { |k| k.with_native(&:itself) })
      handed_over(LockSet, keys, shared) do
        @native.acquire_all(natives, shared, timeout_ms, reentrant ? true : false, nil, 0)
      end
    end

    # Runs the block, the native call taking a lock or a set, and wraps what
    # it returned (nil: not acquired) in guard_class (Lock, LockSet).
    # Interrupts (Thread#raise, Thread#kill, Ctrl-C, Timeout) reach the wait
    # itself, which gives back what was granted meanwhile (advlock_ruby.i),
    # and none lands between the grant and the guard in the caller's hands:
    # one that comes then releases it before it is raised.
    def handed_over(guard_class, keys, shared)
      InterruptRelay.ensure_running
      Thread.handle_interrupt(DEFER_INTERRUPTS) do
        native = Thread.handle_interrupt(INTERRUPTS_WHILE_BLOCKING) { yield }
        held = native && guard_class.new(self, native, keys, shared)
        give_back_if_interrupted(held)
        held
      end
    end

    # An interrupt arrived while the lock or set was being handed over: release it, then raise.
    def give_back_if_interrupted(held)
      return unless Thread.pending_interrupt?

      begin
        held&.release
      rescue Error
        nil # the interrupt is what the caller hears about
      end
      Thread.handle_interrupt(INTERRUPTS_AT_ONCE) { Thread.pass }
    end

    # The Keys of a set: an Array only. Refused here, since the C library
    # sees only keys: a String or a Key where the Array belongs (one key, not
    # a set of one). Integers in it are bigint keys: [100, 1] is two keys, the
    # pair key is [[100, 1]]. An empty set and a key twice are the C
    # library's to refuse (InvalidArgument).
    def key_list(keys)
      unless keys.is_a?(Array)
        raise TypeError, "try_lock_all, lock_all and with_locks take an Array of keys, e.g. " \
                         "[\"daily_sales\", \"inventory\"] (a pair key in it is [k1, k2]), got #{keys.class}; " \
                         "for one key, use try_lock, lock or with_lock"
      end
      keys.map { |key| Key.coerce(key, @registry) }
    end

    # The thread behind on_lost. The C library's loss fd turns readable (and
    # stays so) once the locks are lost or the session is closed; this waits
    # for it with IO.select, a wait during which Ruby still handles signals:
    # had it waited in native code, no thread would be left to turn a Ctrl-C
    # into an Interrupt of a main thread waiting for a lock (Ruby starts its
    # own helper for that only while the process has one thread). The fd is
    # the C library's: never closed here (autoclose: false).
    def watch_for_loss
      IO.select([IO.for_fd(@native.loss_fd, autoclose: false)])
      why = loss_reason
      while (block = next_lost_block)
        next if why.nil? # closed: nothing was lost

        begin
          block.call(why)
        rescue StandardError => e
          warn "advlock: an on_lost block raised #{e.class}: #{e.message}"
        end
      end
    end

    # Why the locks were lost, or nil when the session was closed instead.
    def loss_reason
      @native.check
      warn "advlock: the loss fd turned readable on a session neither lost nor closed; on_lost ends"
      nil
    rescue LockLost => e
      e.message
    rescue Misuse
      nil
    end

    # The next block to call (each once), or nil, and then this thread is
    # done: an on_lost after that starts a new one, which finds the fd
    # readable at once (the loss is sticky).
    def next_lost_block
      @mutex.synchronize { @lost_blocks.shift || (@lost_watcher = nil) }
    end

    def holder(h)
      Holder.new(key: Key.from_native(h.key), name: presence(h.lock_name), shared: h.shared, granted: h.granted,
                 server_id: h.server_id, is_self: h.is_self, user: presence(h.user),
                 application_name: presence(h.application_name), client_addr: presence(h.client_addr),
                 backend_start: time(h.backend_start_unix_us), wait_start: time(h.wait_start_unix_us),
                 details_hidden: h.details_hidden)
    end

    def presence(text) = text.empty? ? nil : text
    def time(unix_us) = unix_us.zero? ? nil : Time.at(unix_us / 1_000_000r).utc

    def milliseconds(seconds, what)
      return nil if seconds.nil?
      unless seconds.is_a?(Numeric) && seconds >= 0 && seconds <= 2_147_483.647
        raise InvalidArgument, "#{what} must be nil or 0 to 2147483.647 seconds, got #{seconds.inspect}"
      end

      (seconds * 1000).ceil
    end
  end
end
