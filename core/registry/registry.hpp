// The lock registry (DESIGN.md §4): a TOML file that gives every lock a name
// and a key, so keys are not scattered through code and pg_locks rows can be
// read back as names.
//
//   [locks.daily_sales]
//   key = [100, 1]                  # pair; or key = 7001 (bigint); or absent: advlock scheme of the name
//   description = "Nightly sales aggregation"
//   shares_with = ["sales_backfill"]   # same key on purpose: the jobs exclude each other
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "keys/key.hpp"
#include "keys/lock_target.hpp"

namespace advlock::core {

struct RegistryEntry {
    std::string name;
    Key key = Key::bigint(0);
    bool key_from_name = false;  // no `key` field: the advlock scheme of the name
    std::string description;
    std::vector<std::string> shares_with;
    int line = 0;  // line of the entry's table
};

class Registry {
public:
    // Throws IoError when the file cannot be read, RegistryError ("file:line:
    // ...") when it is invalid.
    static Registry load_file(const std::string &path);
    static Registry parse(std::string_view text, const std::string &origin);

    const std::string &origin() const { return origin_; }
    const std::vector<RegistryEntry> &entries() const { return entries_; }

    // Ignoring ASCII case; nullptr when absent.
    const RegistryEntry *find_name(std::string_view name) const;
    // The first entry in file order with that key; nullptr when absent.
    const RegistryEntry *find_key(const Key &key) const;

    // As find_name / find_key, but throw NotFound (with a suggestion) when absent.
    const RegistryEntry &require_name(std::string_view name) const;
    const RegistryEntry &require_key(const Key &key) const;

private:
    std::string origin_;
    std::vector<RegistryEntry> entries_;
    std::unordered_map<std::string, std::size_t> by_lower_name_;
    std::unordered_map<Key, std::size_t, KeyHash> by_key_;

    friend class RegistryBuilder;
};

// What locking an entry locks: its name when its key is the name's (so MySQL,
// which locks names, sees the same lock as a caller naming it directly), else
// its key.
inline LockTarget lock_target_of(const RegistryEntry &entry) {
    return entry.key_from_name ? LockTarget::named(entry.name) : LockTarget(entry.key);
}

}  // namespace advlock::core
