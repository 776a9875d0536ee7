// A reader for the subset of TOML 1.0 that advlock's files use: tables
// ([a.b], inline {..}), dotted keys, strings (all four kinds), integers
// (decimal, 0x, 0o, 0b), booleans and arrays. Floats, dates and arrays of
// tables are refused with a message saying so. Duplicate keys and table
// redefinitions are errors, as TOML requires.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "toml/toml_value.hpp"

namespace advlock::core::toml {

// A syntax error at a 1-based line; the caller adds the file name.
class SyntaxError : public std::runtime_error {
public:
    SyntaxError(int line, const std::string &message) : std::runtime_error(message), line_(line) {}
    int line() const { return line_; }

private:
    int line_;
};

// Parse a whole document; returns the root table. Throws SyntaxError.
Value parse(std::string_view text);

}  // namespace advlock::core::toml
