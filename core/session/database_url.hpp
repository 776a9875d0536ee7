// Which backend a database URL names, checked before any connection attempt:
// a typo (--db locall, postgress://...) must get a did-you-mean, not libpq's
// 'missing "=" after "locall" in connection info string'.
#pragma once

#include <string_view>

namespace advlock::core {

// Throws InvalidArgument, naming the backend word it was probably meant to be,
// for a URL that no backend takes: a scheme that is none of postgresql://,
// postgres://, mysql://, mariadb://, local:, file:, or a bare word that is
// neither a URL nor a libpq key=value string. Anything else (empty: libpq's
// defaults; key=value) is left to the backend. Never repeats the URL past its
// scheme, which may be followed by a password.
void check_database_url(std::string_view url);

// True for "mysql://..." and "mariadb://..." (scheme in any case). Here, not
// in mysql/, because a build without that backend must still recognise them.
bool is_mysql_url(std::string_view url);

// Throws Unsupported for a MySQL URL given to a build without the MySQL
// backend (-DADVLOCK_WITH_MYSQL=OFF), saying how to get one.
[[noreturn]] void refuse_missing_mysql_backend();

}  // namespace advlock::core
