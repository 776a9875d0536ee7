// Fuzz the key text parser and the name schemes. Properties: every input
// either parses or is refused with BadKey (nothing else escapes); a parsed key
// formats to text that parses back to the same key; messages quote input as
// valid UTF-8.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "error.hpp"
#include "fuzz_checks.hpp"
#include "keys/key_text.hpp"
#include "keys/name_schemes.hpp"
#include "text/message_text.hpp"
#include "text/utf8.hpp"

using namespace advlock::core;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        const Key key = parse_key(text);
        if (parse_key(format_key(key)) != key) std::abort();
    } catch (const BadKey &e) {
        advlock::fuzz::require_safe_message(e.what());
    }
    try {
        const Key first = advlock_key_for_name(text);
        if (first != advlock_key_for_name(text) || first.is_pair()) std::abort();
        const Key compat = with_advisory_lock_key_for_name(text, 7);
        if (!compat.is_pair() || compat.k1() < 0 || compat.k2() != 7) std::abort();
    } catch (const BadKey &) {
        // Invalid names are refused; validate_lock_name must agree.
        bool refused = false;
        try {
            validate_lock_name(text);
        } catch (const BadKey &) {
            refused = true;
        }
        if (!refused) std::abort();
    }
    if (!is_valid_utf8(quoted(text))) std::abort();
    return 0;
}
