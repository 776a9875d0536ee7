// CRC-32 as zlib computes it (reflected polynomial 0xEDB88320), which is what
// Ruby's Zlib.crc32 gives the with_advisory_lock gem.
#pragma once

#include <cstdint>
#include <string_view>

namespace advlock::core {

std::uint32_t crc32(std::string_view data);

}  // namespace advlock::core
