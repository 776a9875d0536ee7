// xact.cpp: transaction-scoped locks on the caller's own driver connection
// (psycopg, psycopg2). The driver hands over its libpq PGconn* as an integer;
// advlock's own libpq then runs the statements on it inside the caller's
// transaction. That is only sound when both use the same libpq, which
// loaded_libpq_count() lets advlock/xact.py find out; otherwise it runs the
// core's SQL text through the driver instead.
#include <link.h>

#include <cstring>
#include <set>
#include <string>

#include "binding.hpp"

namespace advlock_python {

namespace {

pg_conn *as_pgconn(std::uintptr_t address) {
    if (address == 0) {
        throw advlock::misuse(ADVLOCK_EMISUSE, "the driver connection is closed (its libpq pointer is 0)", "");
    }
    return reinterpret_cast<pg_conn *>(address);
}

int count_libpq(dl_phdr_info *info, size_t, void *data) {
    const char *path = info->dlpi_name ? info->dlpi_name : "";
    const char *base = std::strrchr(path, '/');
    base = base ? base + 1 : path;
    // Debian's libpq.so.5 and the copies wheels bundle (libpq-1a2b3c4d.so.5.16).
    if (std::strncmp(base, "libpq.so", 8) == 0 || std::strncmp(base, "libpq-", 6) == 0) {
        static_cast<std::set<std::string> *>(data)->insert(path);
    }
    return 0;
}

}  // namespace

void register_xact(py::module_ &module) {
    module.def("xact_try_lock",
               [](std::uintptr_t conn, const advlock::key &key, bool shared) {
                   pg_conn *pg = as_pgconn(conn);
                   py::gil_scoped_release nogil;
                   return advlock::xact_try_lock(pg, key, shared ? advlock::mode::shared : advlock::mode::exclusive);
               },
               py::arg("pgconn_ptr"), py::arg("key"), py::arg("shared") = false);
    module.def("xact_lock",
               [](std::uintptr_t conn, const advlock::key &key, py::handle timeout, bool shared) {
                   pg_conn *pg = as_pgconn(conn);
                   const std::int64_t timeout_ms = timeout_ms_from_seconds(timeout);
                   bool acquired = false;
                   {
                       py::gil_scoped_release nogil;
                       acquired = advlock::xact_lock_within(pg, key, timeout_ms,
                                                            shared ? advlock::mode::shared : advlock::mode::exclusive);
                   }
                   if (!acquired) {
                       throw advlock::error(ADVLOCK_NOT_ACQUIRED, "lock " + key.to_string() +
                                            " is held by another session; gave up after " +
                                            std::string(py::str(timeout)) + " s (the transaction is still usable)", "");
                   }
               },
               py::arg("pgconn_ptr"), py::arg("key"), py::arg("timeout") = py::none(), py::arg("shared") = false);
    module.def("loaded_libpq_count", [] {
        std::set<std::string> paths;
        dl_iterate_phdr(&count_libpq, &paths);
        return paths.size();
    }, "How many distinct libpq libraries this process has loaded (advlock's own included).");
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
}

}  // namespace advlock_python
