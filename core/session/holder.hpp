// One session holding or waiting for a lock, as the server reports it.
#pragma once

#include <cstdint>

#include <optional>
#include <string>
#include <vector>

#include "keys/key.hpp"
#include "session/lock_mode.hpp"

namespace advlock::core {

struct Holder {
    Key key = Key::bigint(0);
    std::string lock_name;  // from the registry; empty when unknown
    LockMode mode = LockMode::Exclusive;
    bool granted = false;   // false: waiting for it
    std::int64_t pid = 0;   // server session id (MySQL: 64-bit); 0: a prepared transaction holds it
    bool is_self = false;   // the asking session itself
    // Empty when the server hides them from this role (see details_hidden) or,
    // for client_addr, when the client came over a Unix socket.
    std::optional<std::string> user, application_name, client_addr, client_hostname;
    long long backend_start_unix_us = 0;  // the holder's connection start; 0 when hidden
    long long wait_start_unix_us = 0;     // waiters, PostgreSQL 14+; 0 otherwise
    // pg_stat_activity hid this session's details: the role needs pg_read_all_stats.
    bool details_hidden = false;
};

// A listing, and what the server could not show (empty when it showed all):
// MySQL and MariaDB do not always list every lock or its waiters.
struct HolderList {
    std::vector<Holder> rows;
    std::string note;
};

}  // namespace advlock::core
