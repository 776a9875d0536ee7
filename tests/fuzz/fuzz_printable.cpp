// Fuzz the escaper everything printed from outside goes through. Properties:
// the output is safe for a terminal and bounded by the input's limit, valid
// UTF-8 text without controls passes unchanged, and quoted() is printable()
// in quotes.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_checks.hpp"
#include "text/message_text.hpp"

using namespace advlock::core;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size == 0) return 0;
    // The first byte picks the bound, so cuts at every position are tried.
    const std::size_t max_bytes = data[0];
    const std::string_view text(reinterpret_cast<const char *>(data + 1), size - 1);
    const std::string shown = printable(text, max_bytes);
    // Each byte of input becomes at most 8 bytes ("\u{XXXX}" for a 2-byte C1).
    advlock::fuzz::require_safe_message(shown, 8 * max_bytes + 3);
    bool plain = is_valid_utf8(text) && text.size() <= max_bytes;
    for (const char c : text) plain = plain && static_cast<unsigned char>(c) >= 0x20 && c != 0x7F &&
                                      static_cast<unsigned char>(c) < 0x80;
    if (plain && shown != text) std::abort();
    if (quoted(text, max_bytes) != "'" + (text.size() > max_bytes ? shown.substr(0, shown.size() - 3) + "'..."
                                                                  : shown + "'")) {
        std::abort();
    }
    return 0;
}
