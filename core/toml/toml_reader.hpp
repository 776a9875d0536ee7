// A reader for the subset of TOML 1.0 that advlock's files use: tables
// ([a.b], inline {..}), dotted keys, strings (all four kinds), integers
// (decimal, 0x, 0o, 0b), booleans and arrays. Floats, dates and arrays of
// tables are refused with a message saying so. Duplicate keys and table
// redefinitions are errors, as TOML requires.
//
// Hostile input is bounded: the limits below end parsing with a SyntaxError
// at the line where they are passed, so no input can exhaust the stack (the
// parser and the tree's destructor recurse once per level, and 16 levels fit
// comfortably in a 64 KB thread stack), the memory, or a message's length.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include "toml/toml_value.hpp"

namespace advlock::core::toml {

// Tables, dotted keys, arrays and inline tables nested in one another: at
// most this many levels ([locks.NAME] key = [1, 2] uses three).
constexpr int kMaxDepth = 16;
// One key (a table name, a lock name): room for the longest lock name (1024
// bytes) and more, so that the registry's own message names that limit.
constexpr std::size_t kMaxKeyBytes = 4096;
// Values (tables, arrays and their elements, strings, numbers...) in one
// document: far more than any registry needs, few enough to bound memory.
constexpr std::size_t kMaxValues = 250000;

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
