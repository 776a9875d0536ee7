// Which messages from the server mean "this session is ending": the server
// sends them (as FATAL errors, or WARNINGs when another backend crashed) just
// before it closes the connection, and libpq hands them to the notice receiver.
#pragma once

#include <optional>
#include <string>

#include <libpq-fe.h>

namespace advlock::core {

// "FATAL 57P01: terminating connection due to administrator command" when the
// notice announces the end of the session; nothing for ordinary notices.
std::optional<std::string> session_ending_notice(const PGresult *notice);

// The same rule on plain fields, for tests and other backends.
bool is_session_ending(const std::string &severity, const std::string &sqlstate);

}  // namespace advlock::core
