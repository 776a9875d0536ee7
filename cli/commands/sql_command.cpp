// advlock sql revoke|grant --role ROLE: statements that take the right to use
// advisory locks from a role, or give it, for every function signature.
// advlock sql ledger|fence: the tables --once-per and --fence need.
#include <iostream>
#include <utility>

#include "../arguments.hpp"
#include "../exit_codes.hpp"
#include "advlock.hpp"
#include "commands.hpp"

namespace advlock::cli {

int sql_command(const std::vector<std::string> &args) {
    const Arguments arguments = parse_arguments("sql", args, {{"role", true}}, /*takes_command=*/false);
    // The tables to create once: the run ledger (--once-per), the fencing tokens (--fence).
    for (const auto &[what, sql] : {std::pair{"ledger", &advlock::ledger_sql}, std::pair{"fence", &advlock::fence_sql}}) {
        if (arguments.positionals.size() != 1 || arguments.positionals[0] != what) continue;
        if (arguments.has("role")) throw usage_error(std::string("advlock sql ") + what + ": takes no --role");
        std::cout << sql();
        return exit_code::ok;
    }
    if (arguments.positionals.size() != 1 ||
        (arguments.positionals[0] != "revoke" && arguments.positionals[0] != "grant")) {
        throw usage_error("advlock sql: give revoke, grant, ledger or fence, e.g. advlock sql revoke --role PUBLIC");
    }
    const std::optional<std::string> role = arguments.value("role");
    if (!role) throw usage_error("advlock sql " + arguments.positionals[0] + ": which role? Give --role NAME (or PUBLIC)");
    const bool grant = arguments.positionals[0] == "grant";
    try {
        std::cout << (grant ? "-- Let " : "-- Take from ") << *role
                  << " the right to call every advisory-lock function.\n"
                  << advlock::privileges_sql(*role, grant);
    } catch (const advlock::error &e) {
        throw usage_error(std::string("advlock sql: ") + e.what());
    }
    return exit_code::ok;
}

}  // namespace advlock::cli
