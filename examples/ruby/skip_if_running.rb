#!/usr/bin/env ruby
# frozen_string_literal: true

# The daily_sales job in Ruby: runs on one host at a time, skips (exit 3)
# while another run holds the lock. The same example as examples/c, cpp,
# python and java-batch; install the gem first (README: Install, Ruby).
#
#   ruby examples/ruby/skip_if_running.rb postgresql://batch@db/sales [SECONDS]
require "advlock"

url = ARGV.fetch(0, "")
seconds = Float(ARGV.fetch(1, "1"))
status = Advlock.connect(url, application_name: "daily_sales") do |session|
  ran = session.with_lock("daily_sales", timeout: 0) do |lock|
    puts "daily_sales: holding the lock, working"
    $stdout.flush
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
    while Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline # the real work, in steps
      sleep [0.1, seconds].min
      lock.ensure_held # no round trip; raises Advlock::LockLost
    end
    true
  end
  if ran
    0
  else
    puts "daily_sales: already running elsewhere, skipping"
    3
  end
rescue Advlock::LockLost => e
  warn "daily_sales: lock lost, stopping: #{e.message}"
  75
end
exit status
