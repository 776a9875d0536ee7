#include "arguments.hpp"

#include "advlock.hpp"
#include "exit_codes.hpp"

namespace advlock::cli {

namespace {

const OptionSpec *find(const std::vector<OptionSpec> &spec, const std::string &name) {
    for (const OptionSpec &option : spec) {
        if (option.name == name) return &option;
    }
    return nullptr;
}

}  // namespace

Arguments parse_arguments(const std::string &subcommand, const std::vector<std::string> &args,
                          const std::vector<OptionSpec> &spec, bool takes_command) {
    const std::string where = "advlock " + subcommand;
    Arguments parsed;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (arg == "--") {
            const auto rest = args.begin() + static_cast<long>(i) + 1;
            if (takes_command) {
                parsed.command.assign(rest, args.end());
            } else {
                parsed.positionals.insert(parsed.positionals.end(), rest, args.end());
            }
            break;
        }
        if (arg.rfind("--", 0) != 0 || arg == "-") {
            if (arg.size() > 1 && arg[0] == '-' && arg != "-") {
                throw usage_error(where + ": unknown option " + advlock::printable(arg) +
                                  " (options are spelled --name; put \"--\" before a name that begins with '-'); see " +
                                  where + " --help");
            }
            parsed.positionals.push_back(arg);
            continue;
        }
        std::string name = arg.substr(2), value;
        bool inline_value = false;
        if (const auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            inline_value = true;
        }
        const OptionSpec *option = find(spec, name);
        if (!option) {
            throw usage_error(where + ": unknown option --" + advlock::printable(name) + "; see " + where + " --help");
        }
        if (parsed.has(name) && !option->repeats) throw usage_error(where + ": --" + name + " is given twice");
        if (!option->takes_value) {
            if (inline_value) throw usage_error(where + ": --" + name + " takes no value");
            parsed.flags.insert(name);
            continue;
        }
        if (!inline_value) {
            if (i + 1 >= args.size()) throw usage_error(where + ": --" + name + " needs a value");
            value = args[++i];
        }
        parsed.values.emplace(name, value);  // the first stays
        parsed.lists[name].push_back(value);
    }
    if (takes_command && parsed.command.empty()) {
        throw usage_error(where + ": no command to run: put it after \"--\", e.g. " + where +
                          " --db URL --name JOB -- /usr/local/bin/job.sh");
    }
    return parsed;
}

}  // namespace advlock::cli
