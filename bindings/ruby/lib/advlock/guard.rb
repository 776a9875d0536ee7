# frozen_string_literal: true

module Advlock
  # What a Lock and a LockSet have in common: they are held until released,
  # and their state (held, released, their session closed or its locks lost)
  # is the C library's, read through @native. Including classes set
  # @session, @native and @shared.
  module Guard
    attr_reader :session

    def shared? = @shared

    # Release now. Raises LockLost when the locks had been lost (the work done
    # under them may have overlapped another holder), Misuse when already
    # released or the session is closed. Either way they are released afterwards.
    def release = @native.release

    # No round trip (reads the watchdog's state): call it in the job's loops;
    # raises LockLost once the locks are known lost.
    def ensure_held = @native.check

    # One round trip proving the session still holds the locks; strict: true
    # also reads pg_locks for each key.
    def verify(strict: false) = @native.verify(strict)

    # Not released, the session neither closed nor known to have lost them.
    def held? = @native.held
  end
end
