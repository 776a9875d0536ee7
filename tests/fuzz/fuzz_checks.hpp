// What every fuzz target checks of a message the core produced from hostile
// input: valid UTF-8, nothing a terminal would act on (C0 controls, DEL, C1
// controls), and bounded whatever the input's size.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "text/utf8.hpp"

namespace advlock::fuzz {

inline bool is_safe_message(std::string_view message, std::size_t max_bytes = 4096) {
    if (message.size() > max_bytes || !core::is_valid_utf8(message)) return false;
    for (std::size_t i = 0; i < message.size(); ++i) {
        const auto c = static_cast<unsigned char>(message[i]);
        if (c < 0x20 || c == 0x7F) return false;
        if (c == 0xC2 && i + 1 < message.size() && static_cast<unsigned char>(message[i + 1]) <= 0x9F) return false;
    }
    return true;
}

// Aborts (a finding) unless message is safe; says why first, for triage.
inline void require_safe_message(std::string_view message, std::size_t max_bytes = 4096) {
    if (is_safe_message(message, max_bytes)) return;
    std::fprintf(stderr, "unsafe message (%zu bytes, limit %zu):\n", message.size(), max_bytes);
    for (const char c : message.substr(0, 2000)) {
        const auto b = static_cast<unsigned char>(c);
        if (b >= 0x20 && b < 0x7F) std::fputc(b, stderr); else std::fprintf(stderr, "<%02X>", b);
    }
    std::fputc('\n', stderr);
    std::abort();
}

}  // namespace advlock::fuzz
