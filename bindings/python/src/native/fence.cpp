// fence.cpp: what advlock/fence.py needs from the core to check a fencing
// token through the caller's own driver (psycopg, psycopg2, any DB-API
// connection): the check's SQL text and the DDL of the fence table. As for
// transaction-scoped locks (xact.cpp), the statement runs through the
// driver's cursor, never through a PGconn* of its, so advlock_fence_check
// (which takes a libpq connection) is not used here.
#include <string>

#include "binding.hpp"

namespace advlock_python {

void register_fence(py::module_ &module) {
    module.def("fence_sql", [] { return advlock::fence_sql(); },
               "The statements that create the fence table public.advlock_fence and its functions, once per "
               "database (idempotent; the same as `advlock sql fence`).");
    module.def("fence_check_sql",
               [](const advlock::key &key, std::int64_t token) { return advlock::fence_check_sql(key, token); },
               py::arg("key"), py::arg("token"),
               "The fence check as one statement (advlock_fence_check_sql), to run in the job's own transaction "
               "before it commits: it fails with SQLSTATE 55T01 (FencedOut) when a newer token was issued for key.");
}

}  // namespace advlock_python
