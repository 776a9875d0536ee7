# frozen_string_literal: true

module Advlock
  # One held lock. #ensure_held costs no round trip: call it in the job's
  # loops; it raises LockLost once the lock is known lost.
  class Lock
    attr_reader :key, :session

    def initialize(session, native, key, shared)
      @session = session
      @native = native
      @key = key
      @shared = shared
      @released = false
    end

    def shared? = @shared

    # Release now. Raises LockLost when the lock had been lost (the work done
    # under it may have overlapped another holder), Misuse when already released.
    def release
      raise Misuse.new("Advlock::Lock#release: the lock #{key} was already released", status: -8) if @released

      @released = true
      @session.send(:native_call) { @native.release }
    end

    def ensure_held = @session.send(:native_call) { @native.check }
    def verify(strict: false) = @session.send(:native_call) { @native.verify(strict) }
    def held? = !@released && !@session.closed? && @native.held
    def released? = @released
    def inspect = "#<Advlock::Lock #{key}#{' shared' if shared?}#{held? ? ' held' : ' not held'}>"
  end
end
