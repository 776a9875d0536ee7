# frozen_string_literal: true

module Advlock
  # Locks taken all or nothing (Session#try_lock_all, #lock_all, #with_locks):
  # every one of them is held, or none is. They are released together, in one
  # round trip on PostgreSQL; release, ensure_held, verify, held? and shared?
  # (Guard) are a Lock's, for the whole set.
  class LockSet
    include Guard

    # The Keys, in the order they were asked for (frozen).
    attr_reader :keys

    # @api private: Session#take_all makes it; keys are Keys, native the
    # Native::NativeLockSet holding them.
    def initialize(session, native, keys, shared)
      @session = session
      @native = native
      @keys = keys.freeze
      @shared = shared
    end

    def size = @keys.size
    alias length size

    # "set of 1:2, 42", as error messages name it.
    def to_s = LockSet.label(keys)
    def inspect = "#<Advlock::LockSet #{keys.join(', ')}#{' shared' if shared?}#{held? ? ' held' : ' not held'}>"

    # @api private: how messages name a set of keys (Keys).
    def self.label(keys) = "set of #{keys.join(', ')}"
  end
end
