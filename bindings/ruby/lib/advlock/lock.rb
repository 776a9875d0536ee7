# frozen_string_literal: true

module Advlock
  # One held lock. #ensure_held costs no round trip: call it in the job's
  # loops; it raises LockLost once the lock is known lost. Its state (held,
  # released, its session closed) is the C library's. release, ensure_held,
  # verify, held? and shared? come from Guard, as for a LockSet.
  class Lock
    include Guard

    attr_reader :key

    # 1..N for a lock taken with slots:, 0 otherwise (fixed at the grant;
    # asked when first read, which a try_lock + release cycle never does).
    def slot = @slot ||= @native.slot

    # (A try_lock's Lock is made natively, with the same four variables:
    # advlock_ruby.i, advlock_try_lock_held.)
    def initialize(session, native, key, shared)
      @session = session
      @native = native
      @key = key
      @shared = shared
    end

    # The key held on the server: #key, or for a lock taken with slots: its
    # slot's key (key.slot(slot)), as pg_locks shows it.
    def server_key = Key.from_native(@native.server_key)

    # The fencing token issued with the grant (fence: true), an Integer
    # greater than every earlier one for the key; still readable after
    # release. Raises Misuse for a lock taken without one.
    def fence_token = @native.fence_token

    # Check the fencing token on the job's own connection, inside its open
    # transaction, right before commit: a PG::Connection, or an ActiveRecord
    # connection (Model.connection). Raises FencedOut (a LockLost) when a
    # newer holder took the lock: roll back. Otherwise the next holder's token
    # waits until this transaction ends, so its commit cannot overlap a newer
    # holder's work. Raises Misuse outside a transaction or for a lock taken
    # without fence: true.
    def check_fence(connection) = Fence.check(connection, self)

    # The check as one statement, for a driver check_fence does not know
    # (Sequel...): run it in the job's transaction and map a failure with
    # Advlock::Error.for_sqlstate.
    def fence_check_sql = server_key.fence_check_sql(fence_token)

    def inspect = "#<Advlock::Lock #{key}#{" slot #{slot}" if slot.positive?}#{' shared' if shared?}" \
                  "#{held? ? ' held' : ' not held'}>"
  end
end
