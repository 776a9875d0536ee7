// advlock: the command-line tool. `advlock run ... -- job` in a crontab line
// keeps the job from running twice at once, across hosts.
#include <algorithm>
#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "advlock.hpp"
#include "commands/commands.hpp"
#include "exit_codes.hpp"
#include "job/inherited_state.hpp"
#include "lock_target.hpp"

namespace {

using namespace advlock::cli;

void print_overview(std::ostream &out) {
    out << "usage: advlock COMMAND [options]\n\n"
           "Keep jobs from running twice at once, across hosts, with PostgreSQL advisory locks.\n\n"
           "commands:\n";
    for (const Command &command : commands()) {
        out << "  " << command.name << std::string(8 - std::string(command.name).size(), ' ') << command.summary
            << "\n";
    }
    out << "\n`advlock COMMAND --help` tells more; `advlock --version` the version.\n";
}

int dispatch(const std::vector<std::string> &args) {
    if (args.empty()) {
        print_overview(std::cerr);
        return exit_code::usage;
    }
    const std::string &name = args[0];
    if (name == "--help" || name == "-h" || name == "help") {
        if (name == "help" && args.size() > 1) return dispatch({args[1], "--help"});
        print_overview(std::cout);
        return exit_code::ok;
    }
    if (name == "--version") {
        std::cout << "advlock " << advlock_version() << "\n";
        return exit_code::ok;
    }
    for (const Command &command : commands()) {
        if (name != command.name) continue;
        const std::vector<std::string> rest(args.begin() + 1, args.end());
        for (const std::string &arg : rest) {
            if (arg == "--") break;
            if (arg == "--help" || arg == "-h") {
                std::cout << command.help;
                return exit_code::ok;
            }
        }
        return command.run(rest);
    }
    throw usage_error("unknown command " + advlock::printable(name) + "; `advlock --help` lists them");
}

// An error message as the terminal gets it: its lines kept, and in each what a
// server or a library sent (an error text, a role or host name) escaped, so
// it can neither move the cursor nor recolour what follows.
std::string for_terminal(const std::string &message) {
    std::string out;
    for (std::size_t start = 0; start <= message.size();) {
        const std::size_t end = std::min(message.find('\n', start), message.size());
        if (start > 0) out += "\n";
        out += advlock::printable(std::string_view(message).substr(start, end - start), 4096);
        start = end + 1;
    }
    return out;
}

}  // namespace

int main(int argc, char **argv) {
    // First: what the job must get back as advlock got it (nohup's ignored
    // SIGHUP, the signal mask, inherited descriptors).
    capture_inherited_state();
    // A broken stderr (`2>&1 | logger` after logger died) must not kill advlock
    // before it has stopped the job; write errors are just ignored.
    std::signal(SIGPIPE, SIG_IGN);
    try {
        return dispatch(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const CliError &e) {
        const std::string message = e.what();  // usage messages name the subcommand: "advlock run: ..."
        std::cerr << (message.rfind("advlock ", 0) == 0 ? "" : "advlock: ") << for_terminal(message) << "\n";
        return e.code();
    } catch (const advlock::error &e) {
        std::cerr << "advlock: " << for_terminal(e.what()) << "\n";
        return exit_code_for(e);
    } catch (const std::exception &e) {
        std::cerr << "advlock: internal error (a bug in advlock, please report it): " << for_terminal(e.what())
                  << "\n";
        return exit_code::software;
    }
}
