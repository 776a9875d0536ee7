#include "postgres/pg_loss_notices.hpp"

#include "text/message_text.hpp"

namespace advlock::core {

bool is_session_ending(const std::string &severity, const std::string &sqlstate) {
    if (severity == "FATAL" || severity == "PANIC") return true;
    // 57P01 admin shutdown / terminate, 57P02 crash of another backend, 57P03
    // cannot connect now, 57P04 database dropped, 57P05 idle-session timeout;
    // 25P03 idle-in-transaction timeout.
    return sqlstate.rfind("57P", 0) == 0 || sqlstate == "25P03";
}

std::optional<std::string> session_ending_notice(const PGresult *notice) {
    const char *severity = PQresultErrorField(notice, PG_DIAG_SEVERITY_NONLOCALIZED);
    const char *sqlstate = PQresultErrorField(notice, PG_DIAG_SQLSTATE);
    const std::string s = severity ? severity : "", code = sqlstate ? sqlstate : "";
    if (!is_session_ending(s, code)) return std::nullopt;
    const char *text = PQresultErrorField(notice, PG_DIAG_MESSAGE_PRIMARY);
    return "the server ended the session: " + s + " " + code + ": " + trimmed_message(text);
}

}  // namespace advlock::core
