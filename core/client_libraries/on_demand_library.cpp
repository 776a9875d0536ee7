#include "client_libraries/on_demand_library.hpp"

#include <dlfcn.h>

#include "error.hpp"

namespace advlock::core {

void *OnDemandLibrary::symbol(const char *name) const {
    std::call_once(loaded_, [this] {
        // RTLD_NOW: a broken install fails here, with its reason, rather than
        // later inside a call. RTLD_LOCAL: its symbols serve advlock only.
        handle_ = ::dlopen(soname_, RTLD_NOW | RTLD_LOCAL);
        if (!handle_) {
            const char *why = ::dlerror();
            failure_ = why ? why : "unknown reason";
        }
    });
    if (!handle_) {
        throw Unsupported(std::string(needed_) + "; it cannot be loaded here: " + failure_);
    }
    ::dlerror();  // clear any earlier error: dlsym's own is the one read below
    void *found = ::dlsym(handle_, name);
    if (!found) {
        const char *why = ::dlerror();
        throw Unsupported(std::string(soname_) + " has no " + name + " (" + (why ? why : "not found") +
                          "): it is older than the one advlock was built with; " + needed_);
    }
    return found;
}

}  // namespace advlock::core
