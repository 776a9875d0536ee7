// Fuzz the command's config file parser (cli/config, and the TOML reader under it). Properties:
// every input either loads or is refused with ConfigError carrying
// "origin:line: " and a safe, bounded message; a loaded config answers for
// every setting, and its durations parse again.
#include <cstdint>
#include <string>
#include <string_view>

#include "config/config_file.hpp"
#include "duration_text.hpp"
#include "error.hpp"
#include "fuzz_checks.hpp"

using namespace advlock::core;
using advlock::cli::ConfigFile;
using advlock::cli::kLongestWaitMs;
using advlock::cli::read_duration;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        const ConfigFile config = ConfigFile::parse(text, "fuzz.toml");
        for (const char *setting : {"database", "registry", "also_local", "local_url", "run.conflict_exit_code"}) {
            if (const auto value = config.get(setting); value && value->empty()) std::abort();
        }
        for (const char *setting : {"run.wait", "run.kill_grace"}) {
            if (const auto value = config.get(setting); value && !read_duration(*value)) std::abort();
        }
        if (const auto wait = config.get("run.wait"); wait && read_duration(*wait)->count() > kLongestWaitMs) {
            std::abort();
        }
    } catch (const ConfigError &e) {
        if (std::string_view(e.what()).substr(0, 10) != "fuzz.toml:") std::abort();
        advlock::fuzz::require_safe_message(e.what());
    }
    return 0;
}
