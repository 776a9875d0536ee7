// What every backend's session offers (PostgreSQL now; MySQL and the local
// flock backend later): one dedicated connection that holds locks. Sessions
// serialise their own calls, so one may be used from several threads.
#pragma once

#include "keys/key.hpp"
#include "session/lock_mode.hpp"

namespace advlock::core {

class LockSession {
public:
    virtual ~LockSession() = default;

    // true: acquired (and counted); false: another session holds it.
    virtual bool try_lock(const Key &key, LockMode mode) = 0;

    // Release one acquisition. Throws LockLost when the server says this
    // session did not hold it, Misuse when the session is closed or this
    // session never took it.
    virtual void unlock(const Key &key, LockMode mode) = 0;

    // End the connection, which releases every lock; later calls throw Misuse.
    virtual void close() noexcept = 0;
    virtual bool is_closed() const = 0;
};

}  // namespace advlock::core
