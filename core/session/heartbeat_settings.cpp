#include "session/heartbeat_settings.hpp"

#include <string>

#include "error.hpp"

namespace advlock::core {

void validate_heartbeat(int interval_ms, int deadline_ms, long long server_frees_locks_after_ms) {
    if (interval_ms < kHeartbeatMinimumMs || deadline_ms < kHeartbeatMinimumMs) {
        throw InvalidArgument("heartbeat interval " + std::to_string(interval_ms) + " ms and deadline " +
                              std::to_string(deadline_ms) + " ms: both must be at least " +
                              std::to_string(kHeartbeatMinimumMs) + " ms");
    }
    if (static_cast<long long>(interval_ms) + deadline_ms >= server_frees_locks_after_ms) {
        throw InvalidArgument(
            "heartbeat interval " + std::to_string(interval_ms) + " ms + deadline " + std::to_string(deadline_ms) +
            " ms must stay below the " + std::to_string(server_frees_locks_after_ms) +
            " ms after which the server frees the locks of a silent client; otherwise, after a network loss, "
            "another job could take the lock before this one learns it lost it");
    }
}

}  // namespace advlock::core
