#include "json_text.hpp"

#include <cstdio>

#include "text/utf8.hpp"

namespace advlock::cli {

std::string json_text(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    while (!text.empty()) {
        const std::optional<std::size_t> invalid = core::first_invalid_utf8(text);
        if (!invalid) {
            out.append(text);
            break;
        }
        out.append(text.substr(0, *invalid));
        char escaped[8];
        std::snprintf(escaped, sizeof escaped, "\\x%02X", static_cast<unsigned char>(text[*invalid]));
        out += escaped;
        text.remove_prefix(*invalid + 1);
    }
    return out;
}

}  // namespace advlock::cli
