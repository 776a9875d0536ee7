// How fast a dead peer is noticed, on each side of a lock connection.
//
// The order matters (DESIGN.md §1): after a network loss the client must give
// the lock up before the server frees it for someone else.
//
//   client: the watchdog sends a heartbeat after 2 s without a round trip and
//           declares the lock lost when no answer came 3 s later: at most
//           2 + 3 = 5 s after the network went silent. (A call blocked on the
//           network fails when TCP gives up: keepalives after about
//           5 + 3 x 2 = 11 s, unacknowledged data after 10 s.)
//   server: drops a vanished client, and so frees its locks, after about
//           10 + 3 x 5 = 25 s of silence (keepalives; tcp_user_timeout 25 s for
//           unacknowledged data), and notices a closed client socket within
//           5 s even while busy (client_connection_check_interval, PG 14+).
//
// So the client lets go at least 20 s before anyone else can take the lock.
// Heartbeat settings are refused when interval + deadline would not stay
// below the server's 25 s.
#pragma once

namespace advlock::core::pg_timeouts {

// libpq connection parameters (client side).
constexpr const char *kClientKeepalivesIdle = "5";
constexpr const char *kClientKeepalivesInterval = "2";
constexpr const char *kClientKeepalivesCount = "3";
constexpr const char *kClientTcpUserTimeoutMs = "10000";
constexpr const char *kConnectTimeoutSeconds = "10";

// Server settings for the lock session (set after connecting).
constexpr const char *kServerKeepalivesIdle = "10";
constexpr const char *kServerKeepalivesInterval = "5";
constexpr const char *kServerKeepalivesCount = "3";
constexpr const char *kServerTcpUserTimeoutMs = "25000";
constexpr const char *kServerClientCheckIntervalMs = "5000";

// How long the server takes to drop a silent client (keepalives: idle +
// count x interval), which every client-side detection must undercut.
constexpr int kServerDropsSilentClientMs = (10 + 3 * 5) * 1000;

// The watchdog's heartbeat (client side).
constexpr int kHeartbeatIntervalMs = 2000;
constexpr int kHeartbeatDeadlineMs = 3000;

}  // namespace advlock::core::pg_timeouts
