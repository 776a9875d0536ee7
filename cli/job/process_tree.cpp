#include "job/process_tree.hpp"

#include <dirent.h>
#include <fstream>
#include <sys/prctl.h>
#include <unistd.h>

namespace advlock::cli {

bool become_subreaper() { return ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0; }

std::vector<pid_t> children_of(pid_t pid) {
    std::vector<pid_t> children;
    const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
    DIR *dir = ::opendir(tasks.c_str());
    if (!dir) return children;
    while (const dirent *entry = ::readdir(dir)) {
        if (entry->d_name[0] == '.') continue;
        std::ifstream list(tasks + "/" + entry->d_name + "/children");
        for (pid_t child; list >> child;) children.push_back(child);
    }
    ::closedir(dir);
    return children;
}

std::vector<pid_t> descendants_of(pid_t pid) {
    std::vector<pid_t> all = children_of(pid);
    for (std::size_t next = 0; next < all.size() && all.size() < 100000; ++next) {
        for (const pid_t child : children_of(all[next])) all.push_back(child);
    }
    return all;
}

std::string describe_process(pid_t pid) {
    std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
    std::string name;
    std::getline(comm, name);
    return name.empty() ? std::to_string(pid) : std::to_string(pid) + " " + name;
}

}  // namespace advlock::cli
