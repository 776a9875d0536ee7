#include "registry/registry.hpp"

#include <unordered_set>

#include "error.hpp"
#include "io/read_file.hpp"
#include "keys/key_text.hpp"
#include "keys/name_schemes.hpp"
#include "text/message_text.hpp"
#include "toml/toml_reader.hpp"

namespace advlock::core {

namespace {

using toml::Value;

// A registry larger than this is a mistake (or an attack), not a list of jobs:
// 4 MiB holds some 40,000 locks with descriptions.
constexpr std::size_t kMaxFileBytes = 4 * 1024 * 1024;

const std::vector<std::string> kEntryFields = {"key", "description", "shares_with"};

}  // namespace

// Turns the TOML tree into entries, checking meaning; every message starts
// with origin:line.
class RegistryBuilder {
public:
    explicit RegistryBuilder(std::string origin) { registry_.origin_ = std::move(origin); }

    Registry build(const Value &root) {
        for (std::size_t i = 0; i < root.keys.size(); ++i) {
            const std::string &key = root.keys[i];
            const Value &value = root.members[i];
            if (key != "locks") {
                fail(value.line, "unknown top-level key " + quoted(key) +
                                     ": a registry holds only [locks.NAME] tables");
            }
            if (!value.is_table()) {
                fail(value.line, "'locks' must be a table of locks ([locks.NAME]), not " +
                                     std::string(value.kind_name()));
            }
            for (std::size_t j = 0; j < value.keys.size(); ++j) add_entry(value.keys[j], value.members[j]);
        }
        check_shares_with();
        return std::move(registry_);
    }

private:
    [[noreturn]] void fail(int line, const std::string &message) const {
        throw RegistryError(printable(registry_.origin_, 200) + ":" + std::to_string(line) + ": " + message);
    }

    void add_entry(const std::string &name, const Value &table) {
        const std::string label = "lock " + quoted(name);
        if (!table.is_table()) {
            fail(table.line, label + " must be a table ([locks.NAME] with key = ...), not " + table.kind_name());
        }
        try {
            validate_lock_name(name);
        } catch (const BadKey &e) {
            fail(table.line, e.what());
        }

        RegistryEntry entry;
        entry.name = name;
        entry.line = table.line;
        for (std::size_t i = 0; i < table.keys.size(); ++i) {
            const std::string &field = table.keys[i];
            const Value &value = table.members[i];
            if (field == "key") {
                entry.key = read_key(label, value);
            } else if (field == "description") {
                if (value.kind != Value::Kind::String) {
                    fail(value.line, label + ": description must be a string, not " + value.kind_name());
                }
                entry.description = value.string;
            } else if (field == "shares_with") {
                entry.shares_with = read_names(label, value);
            } else {
                std::string message = label + ": unknown field " + quoted(field) + "; known fields: key, "
                                      "description, shares_with";
                const std::string near = closest_match(field, kEntryFields);
                if (!near.empty()) message += " (did you mean " + quoted(near) + "?)";
                fail(value.line, message);
            }
        }
        if (!table.find("key")) {
            entry.key = advlock_key_for_name(name);
            entry.key_from_name = true;
        }

        const std::string lower = ascii_lower(name);
        if (const auto it = registry_.by_lower_name_.find(lower); it != registry_.by_lower_name_.end()) {
            const RegistryEntry &first = registry_.entries_[it->second];
            fail(entry.line, label + " differs from " + quoted(first.name) + " (line " +
                                 std::to_string(first.line) +
                                 ") only by case; lock names are compared ignoring case: rename one");
        }
        const std::size_t index = registry_.entries_.size();
        registry_.by_lower_name_.emplace(lower, index);
        registry_.by_key_.emplace(entry.key, index);  // keeps the first holder of a key
        registry_.entries_.push_back(std::move(entry));
    }

    Key read_key(const std::string &label, const Value &value) const {
        const std::string expected = label + ": key must be a bigint (key = 7001) or a pair of int4 "
                                             "(key = [100, 1])";
        if (value.kind == Value::Kind::Integer) return Key::bigint(value.integer);
        if (value.kind != Value::Kind::Array) {
            std::string hint;
            if (value.kind == Value::Kind::String) {
                hint = "; to use the name's own key, leave key out";
            }
            fail(value.line, expected + ", not " + value.kind_name() + hint);
        }
        if (value.items.size() != 2) {
            fail(value.line, expected + "; this array has " + std::to_string(value.items.size()) +
                                 (value.items.size() == 1 ? " element" : " elements"));
        }
        std::int32_t parts[2];
        for (int i = 0; i < 2; ++i) {
            const Value &item = value.items[i];
            const char *which = i == 0 ? "first" : "second";
            if (item.kind != Value::Kind::Integer) {
                fail(item.line, expected + "; the " + which + " element is " + item.kind_name());
            }
            if (item.integer < INT32_MIN || item.integer > INT32_MAX) {
                fail(item.line, label + ": the " + which + " number of the key, " + std::to_string(item.integer) +
                                    ", is out of the int4 range -2147483648..2147483647");
            }
            parts[i] = static_cast<std::int32_t>(item.integer);
        }
        return Key::pair(parts[0], parts[1]);
    }

    std::vector<std::string> read_names(const std::string &label, const Value &value) const {
        const std::string expected = label + ": shares_with must be an array of lock names";
        if (value.kind != Value::Kind::Array) fail(value.line, expected + ", not " + value.kind_name());
        std::vector<std::string> names;
        for (const Value &item : value.items) {
            if (item.kind != Value::Kind::String) fail(item.line, expected + "; found " + item.kind_name());
            names.push_back(item.string);
        }
        return names;
    }

    // Every key is unique unless the two entries say, through shares_with, that
    // they share it on purpose; every shares_with names a lock with the same key.
    void check_shares_with() const {
        const auto &entries = registry_.entries_;
        for (const RegistryEntry &entry : entries) {
            for (const std::string &other_name : entry.shares_with) {
                const RegistryEntry *other = registry_.find_name(other_name);
                if (!other) {
                    fail(entry.line, "lock " + quoted(entry.name) + ": shares_with names " + quoted(other_name) +
                                         ", which is not in this registry");
                }
                if (other->key != entry.key) {
                    fail(entry.line, "lock " + quoted(entry.name) + ": shares_with names " + quoted(other->name) +
                                         " but their keys differ (" + format_key(entry.key) + " and " +
                                         format_key(other->key) + "); give both the same key");
                }
            }
        }
        // Every declared pair once, in a set: looking through a's list for
        // each b would be quadratic in a registry where many locks share a key.
        std::unordered_set<std::string> pairs;
        const auto pair_of = [](const std::string &a, const std::string &b) {
            return ascii_lower(a) + '\0' + ascii_lower(b);
        };
        for (const RegistryEntry &entry : entries) {
            for (const std::string &other : entry.shares_with) pairs.insert(pair_of(entry.name, other));
        }
        const auto declared = [&](const RegistryEntry &a, const RegistryEntry &b) {
            return pairs.count(pair_of(a.name, b.name)) > 0;
        };
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const std::size_t first_index = registry_.by_key_.at(entries[i].key);
            if (first_index == i) continue;
            const RegistryEntry &first = entries[first_index];
            if (declared(entries[i], first) || declared(first, entries[i])) continue;
            const RegistryEntry &entry = entries[i];
            fail(entry.line, "lock " + quoted(entry.name) + " has key " + format_key(entry.key) +
                                 (entry.key_from_name ? " (derived from its name)" : "") + ", already used by " +
                                 quoted(first.name) + " (line " + std::to_string(first.line) +
                                 "); give it its own key, or add shares_with = [\"" + printable(first.name) +
                                 "\"] if the two jobs must exclude each other");
        }
    }

    Registry registry_;
};

Registry Registry::parse(std::string_view text, const std::string &origin) {
    Value root;
    try {
        root = toml::parse(text);
    } catch (const toml::SyntaxError &e) {
        throw RegistryError(printable(origin, 200) + ":" + std::to_string(e.line()) + ": " + e.what());
    }
    return RegistryBuilder(origin).build(root);
}

Registry Registry::load_file(const std::string &path) {
    return parse(read_small_file(path, "registry file", kMaxFileBytes), path);
}

const RegistryEntry *Registry::find_name(std::string_view name) const {
    const auto it = by_lower_name_.find(ascii_lower(name));
    return it == by_lower_name_.end() ? nullptr : &entries_[it->second];
}

const RegistryEntry *Registry::find_key(const Key &key) const {
    const auto it = by_key_.find(key);
    return it == by_key_.end() ? nullptr : &entries_[it->second];
}

const RegistryEntry &Registry::require_name(std::string_view name) const {
    if (const RegistryEntry *entry = find_name(name)) return *entry;
    std::string message = "no lock named " + quoted(name) + " in registry " + quoted(origin_, 200);
    std::vector<std::string> names;
    names.reserve(entries_.size());
    for (const RegistryEntry &entry : entries_) names.push_back(entry.name);
    const std::string near = closest_match(name, names);
    if (!near.empty()) {
        message += " (did you mean " + quoted(near) + "?)";
    } else {
        message += " (it has " + std::to_string(entries_.size()) + (entries_.size() == 1 ? " lock)" : " locks)");
    }
    throw NotFound(message);
}

const RegistryEntry &Registry::require_key(const Key &key) const {
    if (const RegistryEntry *entry = find_key(key)) return *entry;
    throw NotFound("no lock with key " + format_key(key) + " in registry " + quoted(origin_, 200));
}

}  // namespace advlock::core
