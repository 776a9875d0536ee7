// SHA-256 (FIPS 180-4), self-contained so the frozen key scheme does not depend
// on which crypto library a platform ships.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace advlock::core {

using Sha256Digest = std::array<std::uint8_t, 32>;

Sha256Digest sha256(std::string_view data);

}  // namespace advlock::core
