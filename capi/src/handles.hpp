// What the opaque C handles hold, and conversions between C and core values.
#pragma once

#include <memory>

#include "advlock.h"
#include "keys/key.hpp"
#include "registry/registry.hpp"
#include "session/held_lock.hpp"
#include "session/lock_session.hpp"

struct advlock_registry {
    advlock::core::Registry registry;
};

// advlock_registry_entry is never defined: entry handles are the core's own
// RegistryEntry objects, cast to the opaque type and back (see to_c/from_c).

struct advlock_session {
    std::shared_ptr<advlock::core::LockSession> session;
};

struct advlock_lock {
    advlock::core::HeldLock held;
};

struct advlock_cancel_token {
    advlock::core::CancelToken token;
};

namespace advlock::capi {

// Throws InvalidArgument for an unknown space.
core::Key to_core(const advlock_key &key, const char *function);
advlock_key to_c(const core::Key &key);

core::LockMode to_core(advlock_mode mode, const char *function);

inline const advlock_registry_entry *to_c(const core::RegistryEntry *entry) {
    return reinterpret_cast<const advlock_registry_entry *>(entry);
}

inline const core::RegistryEntry *from_c(const advlock_registry_entry *entry) {
    return reinterpret_cast<const core::RegistryEntry *>(entry);
}

}  // namespace advlock::capi
