# frozen_string_literal: true

module Advlock
  # One held lock. #ensure_held costs no round trip: call it in the job's
  # loops; it raises LockLost once the lock is known lost. Its state (held,
  # released, its session closed) is the C library's.
  class Lock
    attr_reader :key, :session

    def initialize(session, native, key, shared)
      @session = session
      @native = native
      @key = key
      @shared = shared
    end

    def shared? = @shared

    # Release now. Raises LockLost when the lock had been lost (the work done
    # under it may have overlapped another holder), Misuse when already
    # released or the session is closed. Either way it is released afterwards.
    def release = @native.release
    def ensure_held = @native.check
    def verify(strict: false) = @native.verify(strict)
    # Not released, its session neither closed nor known to have lost it.
    def held? = @native.held
    def inspect = "#<Advlock::Lock #{key}#{' shared' if shared?}#{held? ? ' held' : ' not held'}>"
  end
end
