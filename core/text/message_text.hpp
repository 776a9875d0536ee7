// Helpers for writing error messages that name the offending input safely:
// quoted, shortened, with control and non-UTF-8 bytes escaped.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace advlock::core {

// 'text' in single quotes, at most max_bytes of it followed by "...", control
// characters and invalid UTF-8 bytes written as \xNN.
std::string quoted(std::string_view text, std::size_t max_bytes = 80);

// A C string from a library (NULL allowed) without its trailing newlines and spaces.
std::string trimmed_message(const char *text);

// ASCII lower case; other bytes unchanged (so UTF-8 stays valid).
std::string ascii_lower(std::string_view text);

// The candidate closest to wanted (edit distance, ignoring ASCII case) when it
// is close enough to be a plausible typo; empty otherwise.
std::string closest_match(std::string_view wanted, const std::vector<std::string> &candidates);

}  // namespace advlock::core
