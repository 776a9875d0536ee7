# frozen_string_literal: true

module Advlock
  # One sleeping thread per process, so that no native call starts a thread.
  #
  # A wait runs without the GVL with an unblocking function that cancels it
  # (advlock_ruby.i). When the calling thread is the process's only living
  # thread, Ruby's rb_nogvl cannot reach that function from a signal (Ctrl-C)
  # by itself, so it starts a thread that sleeps for the length of the call,
  # and kills and joins it afterwards: for every try_lock. That thread was
  # almost half the CPU time of a try_lock + release cycle (45 of 102 µs on
  # Ruby 3.1). A thread that sleeps for good does the same job
  # once: while it lives, Ruby's timer thread calls the unblocking function,
  # as it does in any program with threads.
  #
  # Sleeping, it takes no GVL and no CPU, and it does not hide a deadlock
  # from Ruby (a thread asleep for good counts as stuck). After a fork, or if
  # something kills it, the next call starts it again.
  module InterruptRelay
    NAME = "advlock interrupts"
    @thread = nil
    @starting = Mutex.new

    # Before each native call that may wait: cheap when the thread lives.
    def self.ensure_running
      return if @thread&.alive?

      @starting.synchronize do
        next if @thread&.alive?

        @thread = Thread.new { sleep }
        @thread.name = NAME
        @thread.report_on_exception = false
      end
    end
  end
  private_constant :InterruptRelay
end
