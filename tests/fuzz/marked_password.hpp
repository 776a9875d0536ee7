// For the redaction fuzzers: connection strings whose password can be
// recognised in any message, whatever a parser made of it.
//
// The password is made of marker characters (Greek capitals U+0391..U+03A9,
// UTF-8 CE 91..CE A9, raw or percent-encoded) with the delimiters parsers cut
// at (/ @ : ? # % ' & = , space backslash) between them, so every piece a
// parser could cut out of it holds a marker. Nothing else in a generated
// string is non-ASCII or a %9x/%Ax/%CE escape. The property: no message
// contains a marker byte (any byte >= 0x80), %CE, %9x or %Ax in either case (a
// percent-encoded marker byte), or \xCE, \x9X or \xAX (a marker byte as
// quoted() escapes it). A lone delimiter carries nothing and is not checked.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <string_view>

namespace advlock::fuzz {

// The fuzzer's bytes as a stream of choices; zeros once they run out.
class Choices {
public:
    Choices(const std::uint8_t *data, std::size_t size) : data_(data), size_(size) {}
    std::uint8_t next() { return position_ < size_ ? data_[position_++] : 0; }
    std::size_t below(std::size_t n) { return n ? next() % n : 0; }
    bool done() const { return position_ >= size_; }

private:
    const std::uint8_t *data_;
    std::size_t size_, position_ = 0;
};

inline std::string marker(Choices &choices) {
    const unsigned second = 0x91 + static_cast<unsigned>(choices.below(0xA9 - 0x91 + 1));
    if (choices.below(4) == 0) {  // percent-encoded, either case
        char text[8];
        std::snprintf(text, sizeof text, choices.below(2) ? "%%CE%%%02X" : "%%ce%%%02x", second);
        return text;
    }
    return std::string{static_cast<char>(0xCE), static_cast<char>(second)};
}

inline std::string marked_password(Choices &choices) {
    static constexpr std::string_view kDelimiters[] = {"/", "@", ":", "?", "#", "%", "'", "&", "=", ",", " ", "\\",
                                                       "%2F", "%40", "%zz", "%00", "%", "@@", "//"};
    std::string password = marker(choices);
    for (std::size_t pieces = choices.below(6); pieces > 0; --pieces) {
        if (choices.below(2)) password += kDelimiters[choices.below(std::size(kDelimiters))];
        password += marker(choices);
    }
    return password;
}

// ASCII pieces of URLs and key=value strings, delimiters included, never a marker.
inline std::string ascii_atom(Choices &choices) {
    static constexpr std::string_view kAtoms[] = {
        "@",    "/",       ":",       "?",       "#",         "%",          "'",          "&",       "=",
        " ",    ",",       "[",       "]",       "\\",        "h",          "127.0.0.1",  "[::1]",   "5432",
        "db",   "u",       "x",       "%2F",     "%40",       "%zz",        "%00",        "port=",   "host=",
        "user=", "dbname=", "password=", "sslpassword=", "sslmode=require", "connect_timeout=5", "bogus=1",
        "scope=s", "socket=", "allow_cluster=maybe", "application_name=a", "0", "65536", "h1,h2"};
    return std::string(kAtoms[choices.below(std::size(kAtoms))]);
}

inline std::string ascii_atoms(Choices &choices, std::size_t most) {
    std::string text;
    for (std::size_t n = choices.below(most + 1); n > 0; --n) text += ascii_atom(choices);
    return text;
}

inline bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f'); }

// Whether message shows anything of a marked password (see the top of this file).
inline bool shows_marker(std::string_view message) {
    for (std::size_t i = 0; i < message.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(message[i]);
        if (c >= 0x80) return true;
        if (i + 2 >= message.size()) continue;
        const char first = message[i + 1], second = message[i + 2];
        // %CE, %9x, %Ax: a marker's bytes percent-encoded (either case).
        if (c == '%' && is_hex(second) &&
            (first == '9' || first == 'A' || first == 'a' || ((first == 'C' || first == 'c') && (second == 'E' || second == 'e')))) {
            return true;
        }
        // \xCE, \x9x, \xAx: as quoted() escapes a byte of an incomplete marker.
        if (c == '\\' && first == 'x' && i + 3 < message.size() && (second == '9' || second == 'A' || second == 'C') &&
            is_hex(message[i + 3])) {
            return true;
        }
    }
    return false;
}

// Aborts, printing the input and the message, when a marker shows.
inline void expect_no_marker(std::string_view input, std::string_view where, std::string_view message) {
    if (!shows_marker(message)) return;
    std::fprintf(stderr, "password leaked (%.*s)\ninput:   %.*s\nmessage: %.*s\n", static_cast<int>(where.size()),
                 where.data(), static_cast<int>(input.size()), input.data(), static_cast<int>(message.size()),
                 message.data());
    std::abort();
}

}  // namespace advlock::fuzz
