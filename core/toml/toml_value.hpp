// A TOML document as a tree of values, each remembering the line it came from
// so that higher layers (registry, config) can say "file:line: ..." about
// meaning, not just syntax.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace advlock::core::toml {

struct Value {
    enum class Kind { String, Integer, Boolean, Array, Table };
    // How a table came to be; TOML's rules about redefinition depend on it.
    enum class Origin { Root, Header, Implicit, DottedKey, Inline };

    Kind kind = Kind::Table;
    Origin origin = Origin::Root;
    int line = 0;  // 1-based line where the value (or the table's header) starts

    std::string string;
    std::int64_t integer = 0;
    bool boolean = false;
    std::vector<Value> items;  // Array

    // Table: keys and values in file order, and an index by key.
    std::vector<std::string> keys;
    std::vector<Value> members;
    std::unordered_map<std::string, std::size_t> index;

    bool is_table() const { return kind == Kind::Table; }
    const Value *find(std::string_view key) const;
    Value *find(std::string_view key);
    Value &add(std::string key, Value value);

    // "a string", "an integer", ... for messages.
    const char *kind_name() const;
};

}  // namespace advlock::core::toml
