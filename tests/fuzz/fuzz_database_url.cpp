// Fuzz the database URL check (which backend a --db names, with a
// did-you-mean). Properties: every input passes or is refused with
// InvalidArgument and a safe, bounded message; what follows "scheme://"
// changes neither (it may hold a password).
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "error.hpp"
#include "fuzz_checks.hpp"
#include "session/database_url.hpp"

using namespace advlock::core;

namespace {

// The message check_database_url gives, or "" when it lets url through.
std::string refusal(std::string_view url) {
    try {
        check_database_url(url);
    } catch (const InvalidArgument &e) {
        advlock::fuzz::require_safe_message(e.what(), 1024);
        return e.what();
    }
    return {};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string_view url(reinterpret_cast<const char *>(data), size);
    const std::string message = refusal(url);
    // After "scheme://" may come a password: neither the verdict nor the
    // message may depend on what follows.
    // A scheme (RFC 3986): a letter, then letters, digits, '+', '-', '.'.
    const auto scheme_char = [](char c, bool first) {
        return std::isalpha(static_cast<unsigned char>(c)) ||
               (!first && (std::isdigit(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.'));
    };
    std::size_t i = 0;
    while (i < url.size() && scheme_char(url[i], i == 0)) ++i;
    if (i > 0 && url.substr(i, 3) == "://" && refusal(std::string(url.substr(0, i + 3)) + "x") != message) {
        std::abort();
    }
    return 0;
}
