# frozen_string_literal: true

# Ruby figures, each next to a baseline measured in the same run against the
# same server:
#
#   cycle: Session#try_lock(key) + Lock#release through the gem, vs the C ABI
#     underneath (advlock_bench's BM_AdvlockCapiTryRelease, a C++ program) and
#     ruby-pg running the same two statements as prepared statements; rounds
#     run the three in a random order, about 2 s each. The gem's and the C
#     ABI's CPU time per cycle of the calling thread too: what the gem's code
#     costs, which the load of a shared machine moves far less than wall time.
#   hand-off: a second process waits in Model.with_advisory_lock(name,
#     timeout_seconds: 30) (advlock/active_record); from the start of the
#     holder's release to the waiter holding the lock, on the machine-wide
#     monotonic clock. The with_advisory_lock gem polls every 50-150 ms instead.
#
#   ruby bench/ruby/lock_cycle.rb URL ADVLOCK_BENCH ROUNDS > ruby.json
require "json"
require "pg"
require "advlock"

URL, BENCH, ROUNDS = ARGV[0], ARGV[1], Integer(ARGV.fetch(2, "5"))

def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

def thread_cpu = Process.clock_gettime(Process::CLOCK_THREAD_CPUTIME_ID)

# Wall µs per cycle; with cpu: [wall, CPU µs of the calling thread] per cycle.
def timed_cycles(seconds = 2.0, cpu: false)
  500.times { yield }
  count = 0
  start, cpu_start = now, thread_cpu
  loop do
    100.times { yield }
    count += 100
    elapsed = now - start
    next if elapsed < seconds

    wall = elapsed / count * 1e6
    return cpu ? [wall, (thread_cpu - cpu_start) / count * 1e6] : wall
  end
end

def advlock_ruby
  Advlock.connect(URL, application_name: "bench-ruby") do |session|
    key = Advlock::Key.bigint(424271)
    timed_cycles(cpu: true) { session.try_lock(key).release }
  end
end

def ruby_pg
  conn = PG.connect(URL)
  conn.prepare("try", "SELECT pg_try_advisory_lock($1::int8)")
  conn.prepare("unlock", "SELECT pg_advisory_unlock($1::int8)")
  timed_cycles do
    got = conn.exec_prepared("try", [424272]).getvalue(0, 0)
    released = conn.exec_prepared("unlock", [424272]).getvalue(0, 0)
    raise "ruby-pg cycle failed" unless got == "t" && released == "t"
  end
ensure
  conn&.close
end

def c_abi
  out = IO.popen({ "ADVLOCK_BENCH_PG_URL" => URL },
                 [BENCH, "--benchmark_filter=^BM_AdvlockCapiTryRelease", "--benchmark_format=json"],
                 err: File::NULL, &:read)
  run = JSON.parse(out)["benchmarks"].find { |b| b["run_type"] == "iteration" }
  [run.fetch("real_time"), run.fetch("cpu_time")] # µs; cpu_time: the benchmark's thread
end

WAITER = <<~RUBY
  require "uri"
  require "advlock/active_record"
  uri = URI.parse(ARGV[0])
  ActiveRecord::Base.establish_connection(adapter: "postgresql", host: uri.host, port: uri.port,
    database: uri.path.delete_prefix("/"), username: uri.user, password: URI.decode_www_form_component(uri.password))
  class Job < ActiveRecord::Base; end
  while $stdin.gets
    Job.with_advisory_lock("bench_handoff", timeout_seconds: 30) do
      puts Process.clock_gettime(Process::CLOCK_MONOTONIC)
      $stdout.flush
    end
  end
RUBY

def handoffs(count)
  key = Advlock::Key.from_name_compat("bench_handoff")
  samples = []
  IO.popen([RbConfig.ruby, "-e", WAITER, URL], "r+") do |waiter|
    Advlock.connect(URL, application_name: "bench-holder") do |holder|
      count.times do
        lock = holder.lock(key, timeout: 30) # the waiter lets go after its previous turn
        waiter.puts "go"
        waiter.flush
        sleep 0.001 until holder.holders(key).any? { |h| !h.granted }
        released_at = now
        lock.release
        samples << (Float(waiter.gets) - released_at) * 1e6
      end
    end
    waiter.close_write
  end
  samples.sort
end

results = { "ruby_version" => RUBY_VERSION, "ruby" => [], "capi" => [], "ruby_pg" => [],
            "ruby_cpu" => [], "capi_cpu" => [] }
measures = { "ruby" => -> { advlock_ruby }, "capi" => -> { c_abi }, "ruby_pg" => -> { ruby_pg } }
ROUNDS.times do
  measures.keys.shuffle.each do |name|
    wall, cpu = measures[name].call
    results[name] << wall
    results["#{name}_cpu"] << cpu if cpu
  end
end
samples = handoffs(500)
results["handoff_us"] = { "count" => samples.size, "p50" => samples[samples.size / 2],
                          "p99" => samples[(samples.size * 0.99).floor] }
puts JSON.generate(results)
