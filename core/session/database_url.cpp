#include "session/database_url.hpp"

#include <string>
#include <vector>

#include "error.hpp"
#include "text/message_text.hpp"

namespace advlock::core {

namespace {

const char *const kWhatToGive =
    "give postgresql://HOST/DB (or a libpq key=value string such as host=HOST dbname=DB), mysql://HOST/DB, "
    "mariadb://HOST/DB, or local (local:/DIR, file:/DIR) for this host only";

bool is_scheme_char(char c, bool first) {
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    return first ? alpha : alpha || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
}

std::string suggestion(std::string_view word, const char *separator) {
    static const std::vector<std::string> kWords = {"postgresql", "postgres", "mysql", "mariadb", "local", "file"};
    const std::string near = closest_match(word, kWords);
    if (near.empty()) return {};
    return " (did you mean " + quoted(near + separator) + "?)";
}

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
    return text.size() >= prefix.size() && ascii_lower(text.substr(0, prefix.size())) == prefix;
}

}  // namespace

bool is_mysql_url(std::string_view url) {
    return starts_with_ignoring_case(url, "mysql://") || starts_with_ignoring_case(url, "mariadb://");
}

void refuse_missing_mysql_backend() {
    throw Unsupported(
        "mysql:// and mariadb:// URLs need the MySQL/MariaDB backend, which this build of libadvlock leaves out "
        "(it was configured with -DADVLOCK_WITH_MYSQL=OFF): rebuild with -DADVLOCK_WITH_MYSQL=ON (the default; "
        "needs libmariadb-dev) or install a package built with it");
}

void check_database_url(std::string_view url) {
    std::size_t i = 0;
    while (i < url.size() && is_scheme_char(url[i], i == 0)) ++i;
    const std::string_view word = url.substr(0, i);
    if (i > 0 && i < url.size() && url[i] == ':') {
        const bool slashes = url.substr(i, 3) == "://";
        // postgresql:// and postgres:// are libpq's (exactly so: libpq does not
        // ignore their case); mysql://, mariadb://, local: and file: were
        // taken before this is called.
        if (slashes && (word == "postgresql" || word == "postgres")) return;
        const char *separator = slashes ? "://" : ":";
        throw InvalidArgument("the database URL begins with " + quoted(std::string(word) + separator, 40) +
                              ", which names no advlock backend" + suggestion(word, separator) + ": " + kWhatToGive);
    }
    if (url.find('=') != std::string_view::npos) return;  // libpq key=value
    if (url.find_first_not_of(" \t\n") == std::string_view::npos) return;  // empty: libpq's defaults
    // One bare word (no scheme, no '='): no backend takes it. Quoted only when
    // it is a plain word, as a typo of a backend name is.
    const bool plain = i == url.size();
    throw InvalidArgument("the database URL " + (plain ? quoted(url, 40) + " " : std::string()) +
                          "is neither a URL nor a libpq key=value string" + (plain ? suggestion(word, "") : "") +
                          ": " + kWhatToGive);
}

}  // namespace advlock::core
