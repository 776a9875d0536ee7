// The server the benchmarks run against: $ADVLOCK_BENCH_PG_URL, which
// bench/run.sh sets to a throwaway PostgreSQL on loopback.
#pragma once

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace advlock::bench {

inline std::string server_url() {
    const char *url = std::getenv("ADVLOCK_BENCH_PG_URL");
    if (!url) throw std::runtime_error("set ADVLOCK_BENCH_PG_URL (bench/run.sh does)");
    return url;
}

}  // namespace advlock::bench
