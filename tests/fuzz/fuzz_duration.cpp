// Fuzz the duration parser (core/text/duration; the CLI and the config file
// use it through the C ABI and the config reader). Properties: every input
// parses to 0..100 years or is refused with InvalidArgument and a safe,
// bounded message; a parsed duration written in ms parses to the same value.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "error.hpp"
#include "fuzz_checks.hpp"
#include "text/duration.hpp"

using namespace advlock::core;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        const std::chrono::milliseconds parsed = parse_duration(text);
        constexpr std::int64_t kCentury = 100LL * 365 * 24 * 3600 * 1000;
        if (parsed.count() < 0 || parsed.count() > kCentury) std::abort();
        if (parse_duration(std::to_string(parsed.count()) + "ms") != parsed) std::abort();
    } catch (const InvalidArgument &e) {
        advlock::fuzz::require_safe_message(e.what(), 1024);
    }
    return 0;
}
