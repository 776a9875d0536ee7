#include "keys/name_schemes.hpp"

#include <string>

#include "error.hpp"
#include "keys/crc32.hpp"
#include "keys/sha256.hpp"
#include "text/message_text.hpp"
#include "text/utf8.hpp"

namespace advlock::core {

void validate_lock_name(std::string_view name) {
    if (name.empty()) {
        throw BadKey("lock name is empty: give a name of 1 to " + std::to_string(kMaxNameBytes) +
                     " bytes of UTF-8");
    }
    if (name.size() > kMaxNameBytes) {
        throw BadKey("lock name " + quoted(name, 40) + " is " + std::to_string(name.size()) +
                     " bytes long; the limit is " + std::to_string(kMaxNameBytes) +
                     " bytes of UTF-8: shorten it");
    }
    if (const auto nul = name.find('\0'); nul != std::string_view::npos) {
        throw BadKey("lock name " + quoted(name) + " contains a NUL byte at offset " +
                     std::to_string(nul) + "; names cannot contain NUL");
    }
    if (const auto bad = first_invalid_utf8(name)) {
        throw BadKey("lock name " + quoted(name) + " is not valid UTF-8 (at byte " +
                     std::to_string(*bad) + "); names are UTF-8 text");
    }
}

Key bigint_of_sha256(std::string_view input) {
    const Sha256Digest digest = sha256(input);
    std::uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits = bits << 8 | digest[i];
    return Key::bigint(static_cast<std::int64_t>(bits));
}

Key advlock_key_for_name(std::string_view name) {
    validate_lock_name(name);
    std::string input = "advlock:";
    input.append(name);
    return bigint_of_sha256(input);
}

Key with_advisory_lock_key_for_name(std::string_view name, std::int64_t prefix) {
    validate_lock_name(name);
    const auto hash = static_cast<std::int32_t>(crc32(name) & 0x7fffffffu);
    const auto masked_prefix = static_cast<std::int32_t>(static_cast<std::uint64_t>(prefix) & 0x7fffffffu);
    return Key::pair(hash, masked_prefix);
}

}  // namespace advlock::core
