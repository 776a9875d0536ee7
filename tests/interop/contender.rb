# frozen_string_literal: true

# Interop contender in Ruby (tests/interop/interop.py runs it); the same
# protocol as contender.py:
#   ruby contender.rb keys SPEC...
#   ruby contender.rb contend URL SPEC LOG ROUNDS HOLD_MS
require "advlock"

def key_of(spec)
  kind, rest = spec.split(":", 2)
  return Advlock::Key.from_name(rest) if kind == "name"

  k1, k2 = rest.split(":").map { |n| Integer(n) }
  Advlock::Key.pair(k1, k2)
end

def now_ns = Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)

command, *args = ARGV
if command == "keys"
  args.each { |spec| puts "#{spec}\t#{key_of(spec)}" }
  exit 0
end
url, spec, log, rounds, hold_ms = args
File.open(log, "a") do |out|
  out.sync = true
  Advlock.connect(url, application_name: "interop-ruby") do |session|
    Integer(rounds).times do
      session.with_lock!(key_of(spec), timeout: nil) do
        out.write("E #{now_ns} ruby #{Process.pid}\n")
        sleep(Integer(hold_ms) / 1000.0)
        out.write("X #{now_ns} ruby #{Process.pid}\n")
      end
    end
  end
end
