// Fuzz the command's duration reader (cli/duration_text; the command line
// and the config file use it). Properties: every input reads as 0..100 years
// or is refused with a safe, bounded reason; a duration read, written in ms,
// reads as the same value.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "duration_text.hpp"
#include "fuzz_checks.hpp"

using advlock::cli::duration_refusal;
using advlock::cli::read_duration;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const std::optional<std::chrono::milliseconds> parsed = read_duration(text);
    if (!parsed) {
        advlock::fuzz::require_safe_message(duration_refusal(text), 1024);
        return 0;
    }
    constexpr std::int64_t kCentury = 100LL * 365 * 24 * 3600 * 1000;
    if (parsed->count() < 0 || parsed->count() > kCentury) std::abort();
    if (read_duration(std::to_string(parsed->count()) + "ms") != parsed) std::abort();
    return 0;
}
