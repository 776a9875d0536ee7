// Percentiles of latencies collected by a benchmark.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace advlock::bench {

// p in [0, 1]; 0 for an empty list. Sorts the list.
inline double percentile(std::vector<double> &values, double p) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    return values[static_cast<std::size_t>(p * static_cast<double>(values.size() - 1))];
}

}  // namespace advlock::bench
