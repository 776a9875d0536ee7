#include "session/heartbeat_settings.hpp"

#include <string>

#include "error.hpp"

namespace advlock::core {

namespace {

void require_within(const char *what, long long value_ms, long long minimum_ms, long long maximum_ms) {
    if (value_ms < minimum_ms || value_ms > maximum_ms) {
        throw InvalidArgument(std::string(what) + " " + std::to_string(value_ms) + " ms: must be " +
                              std::to_string(minimum_ms) + " to " + std::to_string(maximum_ms) + " ms");
    }
}

}  // namespace

void validate_heartbeat(const HeartbeatSettings &settings) {
    require_within("heartbeat interval", settings.interval_ms, kHeartbeatMinimumMs, kHeartbeatMaximumMs);
    require_within("heartbeat deadline", settings.deadline_ms, kHeartbeatMinimumMs, kHeartbeatMaximumMs);
    require_within("stop grace (how long the holder may take to stop after a loss; advlock run: --kill-grace)", settings.stop_grace_ms, 0, kHeartbeatMaximumMs);
}

}  // namespace advlock::core
