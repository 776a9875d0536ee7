// Lock targets for a call's argument list: advlock_session_try_lock(&lock,
// session, of_key(key), mode). The target lives until the end of the full
// expression, as long as the call, and (of_name) borrows the string given.
#pragma once

#include <string>

#include "advlock.h"

namespace advlock::test {

class target_arg {
public:
    explicit target_arg(const advlock_target &target) : target_(target) {}
    operator const advlock_target *() const { return &target_; }  // NOLINT(google-explicit-constructor)

private:
    advlock_target target_;
};

// A key without a name.
inline target_arg of_key(const advlock_key &key) { return target_arg(advlock_target_of_key(key)); }

// A name and its advlock key; a bad name gives a target the lock call refuses
// (its key is not the name's), so the call reports the problem.
inline target_arg of_name(const std::string &name) {
    advlock_target target{advlock_key_bigint(0), name.data(), name.size()};
    if (advlock_target_from_name(&target, name.data(), name.size()) != ADVLOCK_OK) {
        target = advlock_target{advlock_key_bigint(0), name.data(), name.size()};
    }
    return target_arg(target);
}

}  // namespace advlock::test
