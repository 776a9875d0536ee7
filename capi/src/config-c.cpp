// The configuration file, and durations as people write them.
#include <map>
#include <memory>
#include <string>

#include "config/config.hpp"
#include "entry_point.hpp"
#include "text/duration.hpp"

using advlock::capi::guarded;
using advlock::capi::require;
using advlock::capi::string_length;
namespace core = advlock::core;

struct advlock_config {
    core::Config config;
    // get() hands out pointers: keep each returned string alive with the config.
    mutable std::map<std::string, std::string> returned;
};

extern "C" {

advlock_status advlock_config_open(advlock_config **out, const char *path) {
    if (out) *out = nullptr;
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(path, function, "path");
        *out = new advlock_config{core::Config::load_file(path), {}};
        return ADVLOCK_OK;
    });
}

advlock_status advlock_config_parse(advlock_config **out, const char *text, size_t text_len, const char *origin) {
    if (out) *out = nullptr;
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(text, function, "text");
        *out = new advlock_config{
            core::Config::parse({text, string_length(text, text_len)}, origin ? origin : "<config>"), {}};
        return ADVLOCK_OK;
    });
}

void advlock_config_free(advlock_config *config) { delete config; }

const char *advlock_config_get(const advlock_config *config, const char *setting) {
    if (!config || !setting) return nullptr;
    const std::optional<std::string> value = config->config.get(setting);
    if (!value) return nullptr;
    return config->returned.insert_or_assign(setting, *value).first->second.c_str();
}

advlock_status advlock_parse_duration(int64_t *out_ms, const char *text) {
    return guarded(__func__, [&](const char *function) {
        require(out_ms, function, "out_ms");
        require(text, function, "text");
        *out_ms = core::parse_duration(text).count();
        return ADVLOCK_OK;
    });
}

}  // extern "C"
