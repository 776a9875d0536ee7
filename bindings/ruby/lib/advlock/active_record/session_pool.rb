# frozen_string_literal: true

module Advlock
  module ActiveRecord
    # The drop-in's lock sessions, by URL. A thread takes one for its
    # outermost lock and keeps it while it holds or waits for any (its nested
    # locks and their releases go through it), then gives it back, as the gem
    # keeps the thread's pool connection. Why not one session for the whole
    # process: a session is busy while it waits on the server, so one thread
    # waiting for a lock another process holds would hold up every other
    # thread's locks and releases meanwhile, and two processes in that state
    # would wait for each other. Idle sessions stay open for the next lock.
    class SessionPool
      attr_reader :pid

      def initialize
        @pid = Process.pid
        @mutex = Mutex.new
        @idle = Hash.new { |hash, url| hash[url] = [] }
        @all = []
      end

      # Yields the calling thread's session for url (the one it already locks
      # on, else one of the pool's) and returns the block's value.
      def with_session(url)
        mine = thread_sessions
        entry = mine[url] || (mine[url] = [checkout(url), 0])
        entry[1] += 1
        begin
          yield entry[0]
        ensure
          entry[1] -= 1
          if entry[1].zero?
            mine.delete(url)
            checkin(url, entry[0])
          end
        end
      end

      # The session the calling thread locks on for url, or nil.
      def current(url) = thread_sessions[url]&.first

      # Close every session (releasing their locks).
      def close_all
        sessions = @mutex.synchronize { @all.dup.tap { @all.clear && @idle.clear } }
        sessions.each(&:close)
      end

      private

      # This thread's [session, depth] by URL, for this pool only (not a
      # discarded one's, e.g. from before a fork or reset!).
      def thread_sessions
        state = Thread.current.thread_variable_get(:advlock_active_record_sessions)
        return state[1] if state && state[0].equal?(self)

        Thread.current.thread_variable_set(:advlock_active_record_sessions, [self, {}])[1]
      end

      def checkout(url)
        idle = @mutex.synchronize { @idle[url].pop }
        return idle if idle

        session = Advlock::Session.new(url, application_name: "advlock-active_record")
        @mutex.synchronize { @all << session }
        session
      end

      # A session that was closed or lost its locks is not handed out again.
      def checkin(url, session)
        if session.closed? || session.lost?
          @mutex.synchronize { @all.delete(session) }
          session.close
        else
          @mutex.synchronize { @idle[url] << session if @all.include?(session) }
        end
      end
    end
  end
end
