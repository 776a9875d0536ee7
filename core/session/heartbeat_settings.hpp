// The one rule every database backend's heartbeat settings obey: after a
// network loss the client must declare its locks lost (heartbeat interval +
// deadline) before the server frees them for someone else.
#pragma once

namespace advlock::core {

// Below this, a heartbeat setting is a mistake (it would flood the server).
constexpr int kHeartbeatMinimumMs = 10;

// Throws InvalidArgument unless both are at least kHeartbeatMinimumMs and
// their sum stays below server_frees_locks_after_ms.
void validate_heartbeat(int interval_ms, int deadline_ms, long long server_frees_locks_after_ms);

}  // namespace advlock::core
