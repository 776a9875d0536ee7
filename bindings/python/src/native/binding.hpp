// binding.hpp: what the parts of the _advlock extension module share. The
// extension is a thin pybind11 skin over advlock.hpp (itself a skin over the C
// ABI): it converts arguments and results, releases the GIL around every call
// that may touch the network, and turns advlock exceptions into the Python
// exception classes of advlock/errors.py. It decides nothing about locks.
#pragma once

#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "advlock.hpp"

namespace advlock_python {

namespace py = pybind11;

// Each file registers its part of the module.
void register_errors(py::module_ &module);
void register_keys(py::module_ &module);
void register_sessions(py::module_ &module);
void register_xact(py::module_ &module);
void register_fence(py::module_ &module);

// A key from what a Python caller may pass: advlock.Key, a name (str, looked
// up in registry when one is given), a bigint (int) or a pair (tuple of two
// ints). Throws advlock::bad_key / advlock::not_found, or TypeError.
advlock::key to_key(py::handle value, const advlock::registry *registry);

// How messages and reprs name the lock the caller asked for with value (which
// to_key turned into key): by the name the caller gave, not the bigint it
// hashes to, in the form the core's messages use: "'daily_sales' (key
// -6711...)", "'daily_sales' (key 100:1)" for a registry entry, or the key's
// text ("100:1", "-42") when it was given as numbers.
std::string key_label(py::handle value, const advlock::key &key);

// Runs call; an advlock::error it throws is thrown again with its message
// prefixed by "lock LABEL: " unless it names the lock already (the core
// knows the name of a lock taken by name, but not that of a registry entry
// with a key of its own, and not every message names the lock).
template <typename Call>
auto naming_errors(const std::string &label, Call &&call) {
    try {
        return call();
    } catch (const advlock::error &error) {
        if (std::string(error.what()).find(label) != std::string::npos) throw;
        throw advlock::error(error.status(), "lock " + label + ": " + error.what(), error.sqlstate());
    }
}

// A slot number or a number of slots (what: the argument's name, for the
// message), as the C ABI's unsigned: TypeError unless an int; InvalidArgument
// below 1 (negative numbers cannot reach the C ABI, and 0 would mean "no
// slots" there). The upper bound, ADVLOCK_SLOTS_MAX, is the core's to check.
unsigned count_from_python(py::handle value, const char *what);

// Seconds (None: wait forever) to the C ABI's milliseconds. Throws
// advlock::invalid_argument for negative or non-finite values.
std::int64_t timeout_ms_from_seconds(py::handle seconds);

// True while the interpreter can still run Python code and release the GIL.
bool interpreter_alive();

}  // namespace advlock_python
