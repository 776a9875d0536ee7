#include "text/message_text.hpp"

#include <algorithm>
#include <cstdio>

#include "text/utf8.hpp"

namespace advlock::core {

std::string quoted(std::string_view text, std::size_t max_bytes) {
    const bool shortened = text.size() > max_bytes;
    if (shortened) {
        // Do not cut a UTF-8 sequence in half: back up to a lead byte.
        std::size_t cut = max_bytes;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
        text = text.substr(0, cut);
    }
    std::string out = "'";
    std::size_t i = 0;
    while (i < text.size()) {
        const auto invalid = first_invalid_utf8(text.substr(i));
        const std::size_t valid_end = invalid ? i + *invalid : text.size();
        for (; i < valid_end; ++i) {
            const unsigned char c = static_cast<unsigned char>(text[i]);
            if (c < 0x20 || c == 0x7F) {
                char escaped[8];
                std::snprintf(escaped, sizeof escaped, "\\x%02X", c);
                out += escaped;
            } else {
                out += static_cast<char>(c);
            }
        }
        if (i < text.size()) {  // one invalid byte
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02X", static_cast<unsigned char>(text[i]));
            out += escaped;
            ++i;
        }
    }
    out += shortened ? "'..." : "'";
    return out;
}

std::string trimmed_message(const char *text) {
    std::string out = text ? text : "";
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ' || out.back() == '\t')) out.pop_back();
    return out;
}

std::string ascii_lower(std::string_view text) {
    std::string out(text);
    for (char &c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

}  // namespace

std::string closest_match(std::string_view wanted, const std::vector<std::string> &candidates) {
    // Long inputs make the quadratic distance costly and are never typos worth guessing.
    constexpr std::size_t kLongest = 256;
    if (wanted.size() > kLongest) return {};
    const std::string lowered = ascii_lower(wanted);
    const std::size_t tolerance = std::max<std::size_t>(1, wanted.size() / 3);
    std::string best;
    std::size_t best_distance = tolerance + 1;
    for (const std::string &candidate : candidates) {
        if (candidate.size() > kLongest) continue;
        const std::size_t d = edit_distance(lowered, ascii_lower(candidate));
        if (d < best_distance) {
            best_distance = d;
            best = candidate;
        }
    }
    return best;
}

}  // namespace advlock::core
