// UTF-8 validation (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace advlock::core {

// Offset of the first byte that does not start a valid UTF-8 sequence, or
// nothing when the whole text is valid.
std::optional<std::size_t> first_invalid_utf8(std::string_view text);

inline bool is_valid_utf8(std::string_view text) { return !first_invalid_utf8(text); }

// text with every byte that does not start a valid sequence replaced by
// U+FFFD: for names read from the system (a process name may be any bytes)
// that must travel as text, e.g. in JSON.
std::string replace_invalid_utf8(std::string_view text);

// Append code point cp (<= U+10FFFF, not a surrogate) as UTF-8.
void append_utf8(std::string &out, char32_t cp);

}  // namespace advlock::core
