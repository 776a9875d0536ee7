// A PGresult that frees itself.
#pragma once

#include <memory>

#include <libpq-fe.h>

namespace advlock::core {

struct PgResultClear {
    void operator()(PGresult *result) const { PQclear(result); }
};
using PgResult = std::unique_ptr<PGresult, PgResultClear>;

}  // namespace advlock::core
