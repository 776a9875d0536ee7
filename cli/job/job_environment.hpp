// The environment the command gets: advlock's own, with the variables that
// tell the job about its lock (ADVLOCK_SLOT, ADVLOCK_FENCE_TOKEN...) set on
// top. Built before the fork, so the child only passes it to exec; advlock's
// own environment is never changed (setenv is not safe while the library's
// threads run).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace advlock::cli {

using EnvironmentVariables = std::vector<std::pair<std::string, std::string>>;

// environ as "NAME=VALUE" strings, each of `set` replacing any inherited
// variable of its name.
std::vector<std::string> environment_with(const EnvironmentVariables &set);

}  // namespace advlock::cli
