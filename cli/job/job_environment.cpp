#include "job/job_environment.hpp"

#include <unistd.h>

extern char **environ;

namespace advlock::cli {

std::vector<std::string> environment_with(const EnvironmentVariables &set) {
    std::vector<std::string> out;
    for (char **entry = environ; entry && *entry; ++entry) {
        const std::string text(*entry);
        const std::string name = text.substr(0, text.find('='));
        bool replaced = false;
        for (const auto &variable : set) replaced = replaced || variable.first == name;
        if (!replaced) out.push_back(text);
    }
    for (const auto &[name, value] : set) out.push_back(name + "=" + value);
    return out;
}

}  // namespace advlock::cli
