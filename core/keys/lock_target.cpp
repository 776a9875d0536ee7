#include "keys/lock_target.hpp"

#include "keys/key_text.hpp"
#include "keys/name_schemes.hpp"
#include "text/message_text.hpp"

namespace advlock::core {

LockTarget LockTarget::named(std::string_view name) {
    LockTarget target(advlock_key_for_name(name));
    target.name_ = std::string(name);
    return target;
}

std::string LockTarget::describe() const {
    if (!name_) return format_key(key_);
    return quoted(*name_) + " (key " + format_key(key_) + ")";
}

}  // namespace advlock::core
