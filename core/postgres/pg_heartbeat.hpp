// The heartbeat: one round trip whose cost does not grow with the number of
// locks on the server, proving that the session still is what it was when it
// took its locks:
//  - the same backend process (a pooler or proxy did not swap it),
//  - the same postmaster (the server did not restart under a proxy),
//  - its sentinel lock still held, i.e. nothing released every lock of the
//    session behind advlock's back (DISCARD ALL, pg_advisory_unlock_all).
//
// The sentinel is a pair key in a category reserved for advlock,
// (kSentinelCategory, backend pid), taken twice at connect with
// pg_try_advisory_lock, so it needs no right beyond the try and unlock that
// every lock session uses (and cannot wait on a squatter). The heartbeat
// releases one hold and takes it again, so the lock itself is never free.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <libpq-fe.h>

#include "keys/key.hpp"

namespace advlock::core {

// 'a' 'd' 'l' 'k' as a big-endian int4: the pair-key category advlock reserves.
constexpr std::int32_t kSentinelCategory = 0x61646c6b;

struct ServerIdentity {
    int backend_pid = 0;
    std::string postmaster_start;  // pg_postmaster_start_time() as text
    // Why this role may not lock (EXECUTE revoked), when it may not: the
    // session then holds no sentinel and only looks (holders).
    std::string lock_rights_missing;
};

constexpr const char *kHeartbeatStatement = "advlock_heartbeat";

// Select-list items that take the sentinel twice (appended to the connect check).
std::string take_sentinel_sql();

// The heartbeat query: pid, postmaster start, sentinel still held (always true
// for a session without one, which cannot hold locks either).
std::string heartbeat_sql(bool has_sentinel);

// Nothing when the heartbeat's row shows the session intact; else why it is not.
std::optional<std::string> heartbeat_problem(const PGresult *result, const ServerIdentity &expected);

// Why a session whose prepared statements vanished (SQLSTATE 26000) lost its locks.
constexpr const char *kStatementsVanished =
    "the session's prepared statements vanished: DISCARD ALL ran on the lock connection, and it released "
    "every lock of the session behind advlock's back";

inline bool is_sentinel(const Key &key) { return key.is_pair() && key.k1() == kSentinelCategory; }

}  // namespace advlock::core
