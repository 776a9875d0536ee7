#include "toml/toml_value.hpp"

namespace advlock::core::toml {

const Value *Value::find(std::string_view key) const {
    const auto it = index.find(std::string(key));
    return it == index.end() ? nullptr : &members[it->second];
}

Value *Value::find(std::string_view key) {
    const auto it = index.find(std::string(key));
    return it == index.end() ? nullptr : &members[it->second];
}

Value &Value::add(std::string key, Value value) {
    index.emplace(key, members.size());
    keys.push_back(std::move(key));
    members.push_back(std::move(value));
    return members.back();
}

const char *Value::kind_name() const {
    switch (kind) {
        case Kind::String: return "a string";
        case Kind::Integer: return "an integer";
        case Kind::Boolean: return "a boolean";
        case Kind::Array: return "an array";
        case Kind::Table: return "a table";
    }
    return "a value";
}

}  // namespace advlock::core::toml
