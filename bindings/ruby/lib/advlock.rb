# frozen_string_literal: true

# advlock: stop batch jobs from running twice at once, across hosts, with
# PostgreSQL advisory locks held on a dedicated connection.
#
#   Advlock.connect(url) do |session|
#     session.with_lock("daily_sales", timeout: 0) { run }   # false when held elsewhere
#     session.with_lock!("daily_sales") { run }              # raises Advlock::NotAcquired
#     session.with_locks(%w[daily_sales inventory]) { run }  # both, all or nothing
#   end
#
# Everything that decides about locks happens in the advlock C library (the
# same one the advlock command and the Python and Java bindings use).
require "pathname"
require "advlock/native"
require_relative "advlock/errors" # its classes come from the native status table
require_relative "advlock/key"
require_relative "advlock/registry"
require_relative "advlock/guard"
require_relative "advlock/lock"
require_relative "advlock/lock_set"
require_relative "advlock/fence"
require_relative "advlock/interrupt_relay"
require_relative "advlock/session"

module Advlock
  VERSION = "0.1.0"

  # The version of the advlock C library in use.
  def self.library_version = Native.version

  # Open a lock session (a postgresql:// URL or conninfo; "" uses the PG*
  # variables; "local" for host locks). With a block, yields it and closes it
  # afterwards, returning the block's value. on_lost: a block called once
  # with why when the locks are lost.
  def self.connect(url = "", on_lost: nil, **options)
    session = Session.new(url, **options)
    session.on_lost(&on_lost) if on_lost
    return session unless block_given?

    begin
      yield session
    ensure
      session.close
    end
  end
end
