// Turning lock names into keys. The advlock scheme is frozen forever (a new
// scheme would get a new prefix); the with_advisory_lock scheme exists so Ruby
// apps can migrate while old and new processes still exclude each other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "keys/key.hpp"

namespace advlock::core {

constexpr std::size_t kMaxNameBytes = 1024;

// Throws BadKey unless name is 1..kMaxNameBytes bytes of valid UTF-8 without NUL.
void validate_lock_name(std::string_view name);

// The first 8 bytes of SHA-256(input), big-endian, signed, as a bigint key:
// the advlock scheme's hash, shared with the slot keys.
Key bigint_of_sha256(std::string_view input);

// First 8 bytes of SHA-256("advlock:" + name), big-endian, signed. Validates.
Key advlock_key_for_name(std::string_view name);

// (crc32(name) & 0x7fffffff, prefix & 0x7fffffff) as a pair. Validates.
Key with_advisory_lock_key_for_name(std::string_view name, std::int64_t prefix);

}  // namespace advlock::core
