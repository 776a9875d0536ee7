// Job slots ("at most N at once"): slot S of a lock is an ordinary lock of its
// own, whose key is derived from the lock's key by a rule frozen like the name
// scheme, so every language, the command and psql find the same slots:
//   first 8 bytes of SHA-256("advlock-slot:" + canonical key text + "/" + S)
// (a prefix other than "advlock:", so no lock name's key can equal a slot's).
#pragma once

#include "keys/key.hpp"

namespace advlock::core {

constexpr unsigned kMaxSlots = 64;

// Throws InvalidArgument unless 1 <= slot <= kMaxSlots.
Key slot_key(const Key &key, unsigned slot);

// Throws InvalidArgument unless slots is 0 (the lock itself) or 1..kMaxSlots
// (1 is slot 1 alone: at most one holder, and one of those that count more);
// `doing` starts the message.
void validate_slot_count(unsigned slots, const char *doing);

}  // namespace advlock::core
