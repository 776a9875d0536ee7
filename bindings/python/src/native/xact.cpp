// xact.cpp: what advlock/xact.py needs from the core to take transaction-
// scoped locks through the caller's own driver (psycopg, psycopg2): the SQL
// text of each statement and what its boolean answer means. The statements
// run through the driver's cursor, never through a PGconn* of its: a binary
// wheel's driver uses a private libpq that advlock's must not touch, and only
// the driver itself knows to open the transaction (its implicit BEGIN).
#include <string>

#include "binding.hpp"

namespace advlock_python {

void register_xact(py::module_ &module) {
    module.def("sql",
               [](const std::string &kind, const advlock::key &key, bool shared) {
                   return advlock::sql(advlock::sql_kind_from_name(kind), key,
                                       shared ? advlock::mode::shared : advlock::mode::exclusive);
               },
               py::arg("kind"), py::arg("key"), py::arg("shared") = false,
               "The SQL statement advlock would run, for another driver: kind is try_lock, lock, unlock, "
               "try_xact_lock or xact_lock.");
    module.def("sql_result",
               [](const std::string &kind, const advlock::key &key, bool result) {
                   return advlock::sql_result(advlock::sql_kind_from_name(kind), key, result);
               },
               py::arg("kind"), py::arg("key"), py::arg("result"),
               "What a statement's boolean answer means: True acquired/released, False not acquired; raises "
               "LockLost for an unlock that found nothing to release.");
    module.def("name_key_sql", [](const std::string &name) { return advlock::name_key_sql(name); }, py::arg("name"),
               "The SQL expression computing Key.from_name(name) on the server.");
    module.def("timeout_ms", [](py::handle seconds) { return timeout_ms_from_seconds(seconds); },
               py::arg("seconds"),
               "Seconds (None: WAIT_FOREVER) as the whole milliseconds advlock waits, checked as Session.lock "
               "checks them.");
}

}  // namespace advlock_python
