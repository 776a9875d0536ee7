// Command-line options of one subcommand: --name VALUE, --name=VALUE, --flag,
// positionals, and everything after "--": the command to run, or (POSIX end
// of options) positionals for subcommands that run none, so that
// `advlock key -- -x` names the lock "-x".
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace advlock::cli {

struct OptionSpec {
    std::string name;  // without the leading --
    bool takes_value;
    bool repeats = false;  // may be given more than once (values in `lists`)
};

struct Arguments {
    std::map<std::string, std::string> values;  // the first value of each option given
    std::map<std::string, std::vector<std::string>> lists;  // every value, in order
    std::set<std::string> flags;
    std::vector<std::string> positionals;
    std::vector<std::string> command;  // after --

    bool has(const std::string &name) const { return values.count(name) || flags.count(name); }
    std::vector<std::string> all(const std::string &name) const {
        const auto it = lists.find(name);
        return it == lists.end() ? std::vector<std::string>() : it->second;
    }
    std::optional<std::string> value(const std::string &name) const {
        const auto it = values.find(name);
        return it == values.end() ? std::nullopt : std::optional<std::string>(it->second);
    }
};

// Throws a usage error naming the subcommand for unknown, repeated (unless
// the spec says it repeats) or
// incomplete options (arguments quoted escaped and shortened).
Arguments parse_arguments(const std::string &subcommand, const std::vector<std::string> &args,
                          const std::vector<OptionSpec> &spec, bool takes_command);

}  // namespace advlock::cli
