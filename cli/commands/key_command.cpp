// advlock key NAME: the key a name turns into, where it shows in pg_locks, and
// the psql expression that computes it.
#include <iostream>

#include "../arguments.hpp"
#include "../exit_codes.hpp"
#include "commands.hpp"
#include "advlock.hpp"

namespace advlock::cli {

int key_command(const std::vector<std::string> &args) {
    const Arguments arguments =
        parse_arguments("key", args, {{"scheme", true}, {"prefix", true}, {"sql", false}}, /*takes_command=*/false);
    if (arguments.positionals.size() != 1) {
        throw usage_error("advlock key: give exactly one lock name, e.g. advlock key daily_sales");
    }
    const std::string &name = arguments.positionals[0];
    const std::string scheme = arguments.value("scheme").value_or("advlock");
    if (scheme != "advlock" && scheme != "with_advisory_lock") {
        throw usage_error("advlock key: --scheme " + advlock::printable(scheme) + ": give advlock or with_advisory_lock");
    }
    if (arguments.has("prefix") && scheme != "with_advisory_lock") {
        throw usage_error("advlock key: --prefix belongs to --scheme with_advisory_lock");
    }
    long long prefix = 0;
    if (const auto text = arguments.value("prefix")) {
        std::size_t used = 0;
        try {
            prefix = std::stoll(*text, &used);
        } catch (...) {
            used = 0;
        }
        if (used == 0 || used != text->size()) throw usage_error("advlock key: --prefix " + advlock::printable(*text) + ": give an integer");
    }
    try {
        if (scheme == "with_advisory_lock") {
            if (arguments.flags.count("sql")) {
                throw usage_error("advlock key: --sql shows the advlock scheme only (PostgreSQL before 18 has no crc32)");
            }
            const advlock::key key = advlock::key::from_name_compat(name, prefix);
            const advlock_pg_locks_key pg = key.to_pg_locks();
            std::cout << key.to_string() << "\npg_locks: classid=" << pg.classid << " objid=" << pg.objid
                      << " objsubid=" << pg.objsubid << "\n";
            return exit_code::ok;
        }
        const advlock::key key = advlock::key::from_name(name);
        if (arguments.flags.count("sql")) {
            std::cout << "SELECT " << advlock::name_key_sql(name) << ";\n";
            return exit_code::ok;
        }
        const advlock_pg_locks_key pg = key.to_pg_locks();
        std::cout << key.to_string() << "\npg_locks: classid=" << pg.classid << " objid=" << pg.objid
                  << " objsubid=" << pg.objsubid << "\npsql: SELECT " << advlock::name_key_sql(name) << ";\n";
        return exit_code::ok;
    } catch (const advlock::bad_key &e) {
        throw usage_error(std::string("advlock key: ") + e.what());
    }
}

}  // namespace advlock::cli
