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

// One class per error status of advlock/status_table.h, named by its Kind
// column (LockLost, Misuse, ...).
#define ADVLOCK_CORE_ERROR_ROW(status, kind, Kind, parent, summary) ADVLOCK_CORE_ERROR(Kind, status);
ADVLOCK_STATUS_ERRORS(ADVLOCK_CORE_ERROR_ROW)
#undef ADVLOCK_CORE_ERROR_ROW
using IoError = FileError;  // the older name, kept so throw sites read as before

#undef ADVLOCK_CORE_ERROR

}  // namespace advlock::core
