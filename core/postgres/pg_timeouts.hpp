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
//   server: drops a vanished client, and so frees its locks, after the
//           session's silence limit (session/heartbeat_settings.hpp: heartbeat
//           + stop grace + 3 s, 18 s by default) through keepalives and
//           tcp_user_timeout, and notices a closed client socket within 5 s
//           even while busy (client_connection_check_interval, PG 14+).
//
// So the client lets go, and its holder has stopped, before anyone else can
// take the lock.
#pragma once

namespace advlock::core::pg_timeouts {

// libpq connection parameters (client side).
constexpr const char *kClientKeepalivesIdle = "5";
constexpr const char *kClientKeepalivesInterval = "2";
constexpr const char *kClientKeepalivesCount = "3";
constexpr const char *kClientTcpUserTimeoutMs = "10000";
constexpr const char *kConnectTimeoutSeconds = "10";

// Server settings for the lock session (set after connecting).
constexpr const char *kServerClientCheckIntervalMs = "5000";

// The server's keepalives for a silence limit: idle + count x interval adds up
// to exactly limit_s (limit_s >= 4, which the heartbeat minimums ensure), with
// probes a sixth of the limit apart so a lost probe or two is not fatal.
struct ServerKeepalives {
    int idle_s;
    int interval_s;
    int count;
};
constexpr ServerKeepalives server_keepalives(int limit_s) {
    const int count = 3;
    const int interval_s = (limit_s + 5) / 6;
    return ServerKeepalives{limit_s - count * interval_s, interval_s, count};
}
static_assert(server_keepalives(18).idle_s == 9 && server_keepalives(18).interval_s == 3);
static_assert(server_keepalives(4).idle_s >= 1);

}  // namespace advlock::core::pg_timeouts
