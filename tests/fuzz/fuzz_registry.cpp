// Fuzz the registry parser (and the TOML reader under it). Properties: every
// input either loads or is refused with RegistryError carrying "origin:line: "
// and a safe, bounded message (fuzz_checks.hpp);
// in a loaded registry every entry is found again by its name and its key.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "error.hpp"
#include "fuzz_checks.hpp"
#include "registry/registry.hpp"
#include "text/message_text.hpp"

using namespace advlock::core;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        const Registry registry = Registry::parse(text, "fuzz.toml");
        for (const RegistryEntry &entry : registry.entries()) {
            const RegistryEntry *by_name = registry.find_name(entry.name);
            if (!by_name || ascii_lower(by_name->name) != ascii_lower(entry.name)) std::abort();
            const RegistryEntry *by_key = registry.find_key(entry.key);
            if (!by_key || by_key->key != entry.key) std::abort();
            if (entry.line < 1) std::abort();
        }
    } catch (const RegistryError &e) {
        if (std::string_view(e.what()).substr(0, 10) != "fuzz.toml:") std::abort();
        advlock::fuzz::require_safe_message(e.what());
    }
    return 0;
}
