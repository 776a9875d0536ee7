// What pg_locks shows of one session's advisory lock on a bigint key, polled
// from a connection of the test's own: for tests that must know a session is
// waiting on the server, or that a release reached it. Polls end after a
// generous bound (a failure, never a timing assertion).
#pragma once

#include <cstdint>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "support/test_postgres.hpp"

namespace advlock::test {

// "waiting", "held", or "none": the row of backend `pid` for the key.
inline std::string pg_lock_row(Psql &psql, std::int64_t pid, long long key) {
    const auto rows = psql.query(
        "SELECT granted FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND pid = $1::int "
        "AND ((classid::bigint << 32) | objid::bigint) = $2::bigint",
        {std::to_string(pid), std::to_string(key)});
    if (rows.empty()) return "none";
    return rows[0][0] == "t" ? "held" : "waiting";
}

// Polls until the row says `state`; false when it never did.
inline bool until_pg_lock_row(std::int64_t pid, long long key, const std::string &state) {
    Psql psql;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (pg_lock_row(psql, pid, key) != state) {
        if (std::chrono::steady_clock::now() >= until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

}  // namespace advlock::test
