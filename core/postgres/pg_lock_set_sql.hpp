// The SQL behind a set of locks taken all or nothing (LockSession::try_lock_all
// and friends): one statement per step, whatever the set's size, so a set of
// 16 keys costs one round trip as one key does. Keys travel as three parallel
// arrays (bigint keys; the two halves of pair keys), one row a key, with NULL
// in the columns the key's space does not use.
#pragma once

#include <string>
#include <vector>

#include "keys/key.hpp"
#include "session/lock_mode.hpp"

namespace advlock::core {

// The three array parameters ($1 bigint[], $2 integer[], $3 integer[]) in
// PostgreSQL's text form, e.g. {"{5,NULL}", "{NULL,1}", "{NULL,2}"}.
struct KeyArrays {
    std::string bigints, firsts, seconds;
};
KeyArrays key_arrays(const std::vector<Key> &keys);

// Prepared ($1..$3 = KeyArrays), one row, one boolean: every key was tried in
// the arrays' order and granted (true), or none is held afterwards (false):
// the grants of a failed try are released in the same statement.
std::string try_all_sql(LockMode mode);

// Prepared ($1..$3), one row, one bigint: how many of the keys this session
// did not hold (0 when every release succeeded).
std::string unlock_all_sql(LockMode mode);

// Simple protocol, literals: waits for every key in the given order under
// lock_timeout (timeout_ms < 0: no limit), one implicit transaction, so the
// SETs last for it only. A failure leaves the keys granted before it held:
// undo_sql releases them.
std::string wait_all_sql(const std::vector<Key> &keys, LockMode mode, long long timeout_ms);

// Releases those of the keys this session holds in the mode, asking the
// server's lock table: for keys the session held no acquisition of before the
// failed wait_all_sql, exactly the ones it granted (including one granted
// just as the wait failed).
std::string undo_sql(const std::vector<Key> &keys, LockMode mode);

}  // namespace advlock::core
