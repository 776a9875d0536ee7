// MariaDB Connector/C's functions as advlock calls them, each loading
// libmariadb.so.3 on its first call (on_demand_library.hpp). As in
// libpq_on_demand.cpp, each definition must match mysql.h's declaration.
// mysql_optionsv (variadic, which cannot be forwarded) is not here: the core
// calls mysql_options and mysql_options4 instead.
#include <mysql.h>

#include "client_libraries/on_demand_library.hpp"

namespace {

const advlock::core::OnDemandLibrary &libmariadb() {
    static const advlock::core::OnDemandLibrary library(
        "libmariadb.so.3",
        "MySQL and MariaDB URLs need MariaDB Connector/C, the client library (Debian: apt-get install libmariadb3)");
    return library;
}

}  // namespace

#define ADVLOCK_LIBMARIADB(result, name, parameters, arguments)                        \
    extern "C" result STDCALL name parameters {                                        \
        static const auto real = libmariadb().function<decltype(&::name)>(#name);      \
        return real arguments;                                                         \
    }

ADVLOCK_LIBMARIADB(const char *, mysql_character_set_name, (MYSQL *mysql), (mysql))
ADVLOCK_LIBMARIADB(void, mysql_close, (MYSQL *sock), (sock))
ADVLOCK_LIBMARIADB(unsigned int, mysql_errno, (MYSQL *mysql), (mysql))
ADVLOCK_LIBMARIADB(const char *, mysql_error, (MYSQL *mysql), (mysql))
ADVLOCK_LIBMARIADB(unsigned long *, mysql_fetch_lengths, (MYSQL_RES *result), (result))
ADVLOCK_LIBMARIADB(MYSQL_ROW, mysql_fetch_row, (MYSQL_RES *result), (result))
ADVLOCK_LIBMARIADB(unsigned int, mysql_field_count, (MYSQL *mysql), (mysql))
ADVLOCK_LIBMARIADB(void, mysql_free_result, (MYSQL_RES *result), (result))
ADVLOCK_LIBMARIADB(char *, mysql_get_server_info, (MYSQL *mysql), (mysql))
ADVLOCK_LIBMARIADB(my_socket, mysql_get_socket, (MYSQL *mysql), (mysql))
ADVLOCK_LIBMARIADB(MYSQL *, mysql_init, (MYSQL *mysql), (mysql))
ADVLOCK_LIBMARIADB(unsigned int, mysql_num_fields, (MYSQL_RES *res), (res))
ADVLOCK_LIBMARIADB(int, mysql_options, (MYSQL *mysql, enum mysql_option option, const void *arg),
                   (mysql, option, arg))
ADVLOCK_LIBMARIADB(int, mysql_options4, (MYSQL *mysql, enum mysql_option option, const void *arg1, const void *arg2),
                   (mysql, option, arg1, arg2))
ADVLOCK_LIBMARIADB(my_bool, mysql_read_query_result, (MYSQL *mysql), (mysql))
ADVLOCK_LIBMARIADB(MYSQL *, mysql_real_connect,
                   (MYSQL *mysql, const char *host, const char *user, const char *passwd, const char *db,
                    unsigned int port, const char *unix_socket, unsigned long clientflag),
                   (mysql, host, user, passwd, db, port, unix_socket, clientflag))
ADVLOCK_LIBMARIADB(unsigned long, mysql_real_escape_string, (MYSQL *mysql, char *to, const char *from, unsigned long length),
                   (mysql, to, from, length))
ADVLOCK_LIBMARIADB(int, mysql_real_query, (MYSQL *mysql, const char *q, unsigned long length), (mysql, q, length))
ADVLOCK_LIBMARIADB(int, mysql_send_query, (MYSQL *mysql, const char *q, unsigned long length), (mysql, q, length))
ADVLOCK_LIBMARIADB(int, mysql_server_init, (int argc, char **argv, char **groups), (argc, argv, groups))
ADVLOCK_LIBMARIADB(int, mysql_set_character_set, (MYSQL *mysql, const char *csname), (mysql, csname))
ADVLOCK_LIBMARIADB(const char *, mysql_sqlstate, (MYSQL *mysql), (mysql))
ADVLOCK_LIBMARIADB(MYSQL_RES *, mysql_store_result, (MYSQL *mysql), (mysql))
