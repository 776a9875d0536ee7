// A PGresult that frees itself.
#pragma once

#include <memory>
#include <string>

#include <libpq-fe.h>

namespace advlock::core {

struct PgResultClear {
    void operator()(PGresult *result) const { PQclear(result); }
};
using PgResult = std::unique_ptr<PGresult, PgResultClear>;

// The SQLSTATE of a failed result ("" for none, or for no result at all).
inline std::string sqlstate_of(const PGresult *result) {
    const char *state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    return state ? state : "";
}

}  // namespace advlock::core
