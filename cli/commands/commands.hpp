// The subcommands of `advlock`. Each takes the arguments after its name and
// returns the exit code; each has a --help text.
#pragma once

#include <string>
#include <vector>

namespace advlock::cli {

struct Command {
    const char *name;
    const char *summary;
    const char *help;  // the whole --help text
    int (*run)(const std::vector<std::string> &args);
};

const std::vector<Command> &commands();

int run_command(const std::vector<std::string> &args);
int hold_command(const std::vector<std::string> &args);
int status_command(const std::vector<std::string> &args);
int key_command(const std::vector<std::string> &args);
int sql_command(const std::vector<std::string> &args);
int check_command(const std::vector<std::string> &args);

}  // namespace advlock::cli
