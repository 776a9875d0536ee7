// The core's one exception type. Every failure the core reports carries the
// advlock_status it maps to, so the C ABI translates it without guessing; the
// small subclasses exist so throw sites read as what went wrong.
#pragma once

#include <stdexcept>
#include <string>

#include "advlock.h"

namespace advlock::core {

class Error : public std::runtime_error {
public:
    Error(advlock_status status, const std::string &message, std::string sqlstate = {})
        : std::runtime_error(message), status_(status), sqlstate_(std::move(sqlstate)) {}

    advlock_status status() const noexcept { return status_; }
    // Five characters from the server, or empty.
    const std::string &sqlstate() const noexcept { return sqlstate_; }

private:
    advlock_status status_;
    std::string sqlstate_;
};

#define ADVLOCK_CORE_ERROR(Name, Status)                                                 \
    class Name : public Error {                                                          \
    public:                                                                              \
        explicit Name(const std::string &message, std::string sqlstate = {})             \
            : Error(Status, message, std::move(sqlstate)) {}                             \
    }

ADVLOCK_CORE_ERROR(InvalidArgument, ADVLOCK_EINVAL);
ADVLOCK_CORE_ERROR(BadKey, ADVLOCK_EKEY);
ADVLOCK_CORE_ERROR(RegistryError, ADVLOCK_EREGISTRY);
ADVLOCK_CORE_ERROR(NotFound, ADVLOCK_ENOTFOUND);
ADVLOCK_CORE_ERROR(IoError, ADVLOCK_EIO);
ADVLOCK_CORE_ERROR(Misuse, ADVLOCK_EMISUSE);
ADVLOCK_CORE_ERROR(ConnectError, ADVLOCK_ECONNECT);
ADVLOCK_CORE_ERROR(StandbyTarget, ADVLOCK_ESTANDBY);
ADVLOCK_CORE_ERROR(ReadOnlyTarget, ADVLOCK_EREADONLY);
ADVLOCK_CORE_ERROR(PoolerTarget, ADVLOCK_EPOOLER);
ADVLOCK_CORE_ERROR(ClusterTarget, ADVLOCK_ECLUSTER);
ADVLOCK_CORE_ERROR(UnsafeLockDirectory, ADVLOCK_EUNSAFEDIR);
ADVLOCK_CORE_ERROR(LockLost, ADVLOCK_ELOST);
ADVLOCK_CORE_ERROR(Canceled, ADVLOCK_ECANCELED);
ADVLOCK_CORE_ERROR(CapacityError, ADVLOCK_ECAPACITY);
ADVLOCK_CORE_ERROR(Deadlock, ADVLOCK_EDEADLOCK);
ADVLOCK_CORE_ERROR(PermissionDenied, ADVLOCK_EPERMISSION);
ADVLOCK_CORE_ERROR(ServerError, ADVLOCK_ESERVER);
ADVLOCK_CORE_ERROR(Unsupported, ADVLOCK_EUNSUPPORTED);
ADVLOCK_CORE_ERROR(ConfigError, ADVLOCK_ECONFIG);

#undef ADVLOCK_CORE_ERROR

}  // namespace advlock::core
