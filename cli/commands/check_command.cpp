// advlock check REGISTRY: validate a registry file and list its locks.
#include <iostream>

#include "../arguments.hpp"
#include "../exit_codes.hpp"
#include "advlock.hpp"
#include "commands.hpp"

namespace advlock::cli {

int check_command(const std::vector<std::string> &args) {
    const Arguments arguments = parse_arguments("check", args, {}, /*takes_command=*/false);
    if (arguments.positionals.size() != 1) throw usage_error("advlock check: give one registry file");
    advlock::registry registry = [&] {
        try {
            return advlock::registry::open(arguments.positionals[0]);
        } catch (const advlock::error &e) {
            throw CliError(exit_code::config, e.what());
        }
    }();
    for (std::size_t i = 0; i < registry.size(); ++i) {
        const advlock::registry_entry entry = registry.at(i);
        // Names and descriptions are the file's: escaped (a tab or an escape
        // sequence in them would break the columns or the terminal).
        std::cout << advlock::printable(entry.name(), 1024) << "\t" << entry.key().to_string();
        if (!entry.description().empty()) std::cout << "\t" << advlock::printable(entry.description(), 200);
        std::cout << "\n";
    }
    std::cout << advlock::printable(arguments.positionals[0], 200) << ": ok, " << registry.size() << (registry.size() == 1 ? " lock" : " locks")
              << "\n";
    return exit_code::ok;
}

}  // namespace advlock::cli
