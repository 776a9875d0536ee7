// Helpers for writing error messages that name the offending input safely:
// quoted, shortened, with control and non-UTF-8 bytes escaped.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace advlock::core {

// How much of a piece of input a message quotes by default: enough to
// recognise it, never the whole of a 10 MB key.
constexpr std::size_t kQuotedBytes = 80;

// text made safe to print on a terminal and bounded: at most max_bytes of it
// (never cutting a character in half) followed by "..." when it was longer;
// control characters (C0, DEL) and bytes that are not UTF-8 written as \xNN,
// C1 controls (U+0080..U+009F, e.g. the one-byte CSI) and the bidirectional
// overrides that reorder what a reader sees written as \u{XXXX}. So an
// escape sequence in a lock name, a process name or a file can neither move
// the cursor nor recolour or hide the rest of the output. The one helper for
// everything advlock prints that came from outside.
std::string printable(std::string_view text, std::size_t max_bytes = kQuotedBytes);

// printable(text, max_bytes) in single quotes: 'text', or 'tex'... when cut.
std::string quoted(std::string_view text, std::size_t max_bytes = kQuotedBytes);

// A C string from a library (NULL allowed) without its trailing newlines and spaces.
std::string trimmed_message(const char *text);

// ASCII lower case; other bytes unchanged (so UTF-8 stays valid).
std::string ascii_lower(std::string_view text);

// The candidate closest to wanted (edit distance, ignoring ASCII case) when it
// is close enough to be a plausible typo; empty otherwise.
std::string closest_match(std::string_view wanted, const std::vector<std::string> &candidates);

}  // namespace advlock::core
