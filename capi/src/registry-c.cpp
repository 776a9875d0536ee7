// Registry files: load, look up, iterate.
#include "entry_point.hpp"
#include "handles.hpp"

using advlock::capi::guarded;
using advlock::capi::require;
using advlock::capi::string_length;
using advlock::capi::from_c;
using advlock::capi::to_c;
namespace core = advlock::core;

extern "C" {

advlock_status advlock_registry_open(advlock_registry **out, const char *path) {
    if (out) *out = nullptr;
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(path, function, "path");
        *out = new advlock_registry{core::Registry::load_file(path)};
        return ADVLOCK_OK;
    });
}

advlock_status advlock_registry_parse(advlock_registry **out, const char *text, size_t text_len,
                                      const char *origin) {
    if (out) *out = nullptr;
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(text, function, "text");
        *out = new advlock_registry{
            core::Registry::parse({text, string_length(text, text_len)}, origin ? origin : "<registry>")};
        return ADVLOCK_OK;
    });
}

void advlock_registry_free(advlock_registry *registry) { delete registry; }

size_t advlock_registry_count(const advlock_registry *registry) {
    return registry ? registry->registry.entries().size() : 0;
}

const advlock_registry_entry *advlock_registry_at(const advlock_registry *registry, size_t index) {
    if (!registry || index >= registry->registry.entries().size()) return nullptr;
    return to_c(&registry->registry.entries()[index]);
}

advlock_status advlock_registry_find_name(const advlock_registry_entry **out, const advlock_registry *registry,
                                          const char *name, size_t name_len) {
    if (out) *out = nullptr;
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(registry, function, "registry");
        require(name, function, "name");
        *out = to_c(&registry->registry.require_name({name, string_length(name, name_len)}));
        return ADVLOCK_OK;
    });
}

advlock_status advlock_registry_find_key(const advlock_registry_entry **out, const advlock_registry *registry,
                                         const advlock_key *key) {
    if (out) *out = nullptr;
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(registry, function, "registry");
        require(key, function, "key");
        *out = to_c(&registry->registry.require_key(advlock::capi::to_core(*key, function)));
        return ADVLOCK_OK;
    });
}

const char *advlock_registry_entry_name(const advlock_registry_entry *entry) {
    return entry ? from_c(entry)->name.c_str() : nullptr;
}

advlock_status advlock_registry_entry_target(advlock_target *out, const advlock_registry_entry *entry) {
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(entry, function, "entry");
        *out = advlock::capi::named_if_its_key(to_c(from_c(entry)->key), from_c(entry)->name.c_str());
        return ADVLOCK_OK;
    });
}

const char *advlock_registry_entry_description(const advlock_registry_entry *entry) {
    return entry ? from_c(entry)->description.c_str() : nullptr;
}

unsigned advlock_registry_entry_line(const advlock_registry_entry *entry) {
    return entry ? static_cast<unsigned>(from_c(entry)->line) : 0;
}

}  // extern "C"
