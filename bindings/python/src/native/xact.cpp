// xact.cpp: what advlock/xact.py needs from the core to take transaction-
// scoped locks through the caller's own driver (psycopg, psycopg2): the SQL
// text of each statement (the timed wait's steps among them) and what its
// answer, or the server error it raised, means. The statements
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
    module.def("xact_wait_sql",
               [](const std::string &step, const advlock::key &key, bool shared, std::int64_t timeout_ms,
                  const std::string &saved) {
                   return advlock::xact_wait_sql(advlock::xact_wait_step_from_name(step), key,
                                                 shared ? advlock::mode::shared : advlock::mode::exclusive,
                                                 timeout_ms, saved);
               },
               py::arg("step"), py::arg("key"), py::arg("shared"), py::arg("timeout_ms"), py::arg("saved") = "",
               "One statement of a timed transaction-scoped wait through another driver (advlock_xact_wait_sql): "
               "step is savepoint, set_timeout (answers one row: the saved lock_timeout first), lock, "
               "restore_timeout (saved: that value) and release on success, or rollback then release on failure.");
    module.def("status_from_sqlstate",
               [](py::handle sqlstate) {
                   return static_cast<int>(advlock::status_from_sqlstate(
                       sqlstate.is_none() ? std::string() : sqlstate.cast<std::string>()));
               },
               py::arg("sqlstate"),
               "The status code (see errors.class_for_status) a server error with this SQLSTATE (or None) means, as "
               "advlock's own sessions map it: NOT_ACQUIRED for 55P03 (a lock_timeout ran out).");
    module.def("name_key_sql", [](const std::string &name) { return advlock::name_key_sql(name); }, py::arg("name"),
               "The SQL expression computing Key.from_name(name) on the server.");
    module.def("timeout_ms", [](py::handle seconds) { return timeout_ms_from_seconds(seconds); },
               py::arg("seconds"),
               "Seconds (None: WAIT_FOREVER) as the whole milliseconds advlock waits, checked as Session.lock "
               "checks them.");
}

}  // namespace advlock_python
