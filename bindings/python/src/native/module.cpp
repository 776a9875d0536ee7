// module.cpp: the _advlock extension module. Users import `advlock`, whose
// Python files re-export what is registered here.
#include "binding.hpp"

PYBIND11_MODULE(_advlock, module) {
    module.doc() = "Native part of advlock: keys, registries, lock sessions (see the advlock package).";
    module.attr("WAIT_FOREVER") = ADVLOCK_WAIT_FOREVER;
    module.def("version", [] { return std::string(advlock_version()); },
               "The version of the advlock library in use, e.g. '0.1.0'.");
    advlock_python::register_errors(module);
    advlock_python::register_keys(module);
    advlock_python::register_sessions(module);
    advlock_python::register_xact(module);
    advlock_python::register_fence(module);
}
