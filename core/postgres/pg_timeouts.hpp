// How fast a dead peer is noticed, on each side of a lock connection.
//
// The order matters (DESIGN.md §1): after a network loss the client must give
// the lock up before the server frees it for someone else. The client's
// keepalives fail after about 5 + 3 x 2 = 11 s (and unacknowledged data after
// 10 s); the server drops a vanished client after about 10 + 3 x 5 = 25 s (25 s
// for unacknowledged data), and notices a closed client socket within 5 s even
// while busy (client_connection_check_interval, PostgreSQL 14+).
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

}  // namespace advlock::core::pg_timeouts
