// advlock_bench: Google Benchmark's main, with a clear message when the
// benchmark server is missing.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
    if (!std::getenv("ADVLOCK_BENCH_PG_URL")) {
        std::fprintf(stderr, "advlock_bench: set ADVLOCK_BENCH_PG_URL, or run bench/run.sh\n");
        return 64;
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 64;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
