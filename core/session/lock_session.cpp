#include "session/lock_session.hpp"

#include "keys/key_text.hpp"

namespace advlock::core {

std::string LockSession::owner_key(const LockTarget &target) const { return format_key(target.key()); }

}  // namespace advlock::core
