#include "text/message_text.hpp"

#include <algorithm>
#include <cstdio>

#include "text/utf8.hpp"

namespace advlock::core {

namespace {

// A code point that changes how a terminal or a reader treats what follows:
// C1 controls, and the bidirectional marks, embeddings, overrides and isolates.
bool is_invisible_control(char32_t cp) {
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || cp == 0x200E || cp == 0x200F ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

// The code point of the valid UTF-8 sequence of length n at text[0].
char32_t decode(std::string_view text, std::size_t n) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    if (n == 1) return byte(0);
    char32_t cp = byte(0) & (0x7F >> n);
    for (std::size_t i = 1; i < n; ++i) cp = (cp << 6) | (byte(i) & 0x3F);
    return cp;
}

std::size_t sequence_length(unsigned char lead) {
    return lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
}

}  // namespace

std::string printable(std::string_view text, std::size_t max_bytes) {
    const bool shortened = text.size() > max_bytes;
    if (shortened) {
        // Do not cut a UTF-8 sequence in half: back up to a lead byte.
        std::size_t cut = max_bytes;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
        text = text.substr(0, cut);
    }
    std::string out;
    out.reserve(text.size() + 3);
    char escaped[16];
    std::size_t i = 0;
    while (i < text.size()) {
        const auto invalid = first_invalid_utf8(text.substr(i));
        const std::size_t valid_end = invalid ? i + *invalid : text.size();
        while (i < valid_end) {
            const auto c = static_cast<unsigned char>(text[i]);
            const std::size_t n = sequence_length(c);
            const char32_t cp = decode(text.substr(i), n);
            if (c < 0x20 || c == 0x7F) {
                std::snprintf(escaped, sizeof escaped, "\\x%02X", c);
                out += escaped;
            } else if (is_invisible_control(cp)) {
                std::snprintf(escaped, sizeof escaped, "\\u{%04X}", static_cast<unsigned>(cp));
                out += escaped;
            } else {
                out.append(text.substr(i, n));
            }
            i += n;
        }
        if (i < text.size()) {  // one invalid byte
            std::snprintf(escaped, sizeof escaped, "\\x%02X", static_cast<unsigned char>(text[i]));
            out += escaped;
            ++i;
        }
    }
    if (shortened) out += "...";
    return out;
}

std::string quoted(std::string_view text, std::size_t max_bytes) {
    std::string out = "'" + printable(text, max_bytes);
    // "...", when cut, goes after the closing quote: 'abc'...
    if (text.size() > max_bytes) {
        out.resize(out.size() - 3);
        return out + "'...";
    }
    return out + "'";
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

// Edits (insert, delete, replace, or swap two neighbours: "loacl" is one
// typo of "local", not two) that turn a into b.
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            row[j] = std::min({previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                row[j] = std::min(row[j], before[j - 2] + 1);
            }
        }
        std::swap(before, previous);
        std::swap(previous, row);
    }
    return previous[b.size()];
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
        // The distance is at least the difference in length: skip the
        // quadratic work for candidates that cannot win (a registry may hold
        // many thousands of names).
        const std::size_t gap = candidate.size() > wanted.size() ? candidate.size() - wanted.size()
                                                                 : wanted.size() - candidate.size();
        if (gap >= best_distance) continue;
        const std::size_t d = edit_distance(lowered, ascii_lower(candidate));
        if (d < best_distance) {
            best_distance = d;
            best = candidate;
        }
    }
    return best;
}

}  // namespace advlock::core
