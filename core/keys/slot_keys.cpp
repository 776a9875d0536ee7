#include "keys/slot_keys.hpp"

#include <string>

#include "error.hpp"
#include "keys/key_text.hpp"
#include "keys/name_schemes.hpp"

namespace advlock::core {

Key slot_key(const Key &key, unsigned slot) {
    if (slot < 1 || slot > kMaxSlots) {
        throw InvalidArgument("slot " + std::to_string(slot) + " of lock " + format_key(key) +
                              ": slots are numbered 1 to " + std::to_string(kMaxSlots));
    }
    return bigint_of_sha256("advlock-slot:" + format_key(key) + "/" + std::to_string(slot));
}

void validate_slot_count(unsigned slots, const char *doing) {
    if (slots > kMaxSlots) {
        throw InvalidArgument(std::string(doing) + ": " + std::to_string(slots) + " slots: give 1 to " +
                              std::to_string(kMaxSlots) + " (or 0 for the lock itself)");
    }
}

}  // namespace advlock::core
