// What the opaque C handles hold, and conversions between C and core values.
#pragma once

#include <memory>

#include "advlock.h"
#include "keys/key.hpp"
#include "keys/lock_target.hpp"
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

// Throws BadKey when the target's name is set and its key is not the name's.
core::LockTarget to_core(const advlock_target &target, const char *function);
// A target for a key shown with a name (holder rows, registry entries): named
// only when the key is that name's advlock key, so MySQL locks the name.
advlock_target named_if_its_key(const advlock_key &key, const char *name);

core::LockMode to_core(advlock_mode mode, const char *function);

inline const advlock_registry_entry *to_c(const core::RegistryEntry *entry) {
    return reinterpret_cast<const advlock_registry_entry *>(entry);
}

inline const core::RegistryEntry *from_c(const advlock_registry_entry *entry) {
    return reinterpret_cast<const core::RegistryEntry *>(entry);
}

}  // namespace advlock::capi
