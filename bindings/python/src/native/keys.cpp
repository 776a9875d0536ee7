// keys.cpp: advlock.Key and advlock.Registry. Every derivation happens in the
// core (through the C ABI); this file only converts Python values.
#include <pybind11/stl.h>

#include <limits>
#include <string>

#include "binding.hpp"

namespace advlock_python {

namespace {

std::string type_name(py::handle value) { return py::str(py::type::of(value).attr("__name__")); }

std::int64_t to_int64(py::handle value, const char *what) {
    try {
        return value.cast<std::int64_t>();
    } catch (const py::cast_error &) {
        throw advlock::bad_key(ADVLOCK_EKEY, std::string(what) + " must be an integer from -2^63 to 2^63-1, got " +
                                                 std::string(py::repr(value)), "");
    }
}

std::int32_t to_int32(py::handle value, const char *what) {
    if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr())) {
        throw py::type_error(std::string(what) + " must be an int, got " + type_name(value));
    }
    const std::int64_t wide = to_int64(value, what);
    if (wide < std::numeric_limits<std::int32_t>::min() || wide > std::numeric_limits<std::int32_t>::max()) {
        throw advlock::bad_key(ADVLOCK_EKEY, std::string(what) + " must fit in int4 (-2147483648 to 2147483647), got " +
                                                 std::to_string(wide), "");
    }
    return static_cast<std::int32_t>(wide);
}

advlock::key key_from_python(py::handle first, py::handle second) {
    if (second.is_none()) {
        if (!PyLong_Check(first.ptr()) || PyBool_Check(first.ptr())) {
            throw py::type_error("Key(n) takes an int (a bigint key); for a name use Key.from_name(), got " +
                                 type_name(first));
        }
        return advlock::key::bigint(to_int64(first, "a bigint key"));
    }
    return advlock::key::pair(to_int32(first, "the first number of a pair key"),
                              to_int32(second, "the second number of a pair key"));
}

std::string key_repr(const advlock::key &key) {
    const advlock_key &k = key.c_key();
    return key.is_pair() ? "Key(" + std::to_string(k.k1) + ", " + std::to_string(k.k2) + ")"
                         : "Key(" + std::to_string(k.bigint) + ")";
}

// A registry entry copied out, so it stays valid whatever happens to its registry.
struct registry_entry_copy {
    std::string name, description;
    advlock::key key;
    unsigned line;
};

registry_entry_copy copy_entry(const advlock::registry_entry &entry) {
    return {std::string(entry.name()), std::string(entry.description()), entry.key(), entry.line()};
}

}  // namespace

unsigned count_from_python(py::handle value, const char *what) {
    if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr())) {
        throw py::type_error(std::string(what) + " must be an int, got " + type_name(value));
    }
    const std::string range = " must be from 1 to " + std::to_string(ADVLOCK_SLOTS_MAX);
    std::int64_t number = 0;
    try {
        number = value.cast<std::int64_t>();
    } catch (const py::cast_error &) {
        throw advlock::invalid_argument(ADVLOCK_EINVAL, std::string(what) + range + ", got " + std::string(py::repr(value)), "");
    }
    if (number < 1 || number > std::numeric_limits<unsigned>::max()) {
        throw advlock::invalid_argument(ADVLOCK_EINVAL, std::string(what) + range + ", got " + std::to_string(number), "");
    }
    return static_cast<unsigned>(number);
}

advlock::key to_key(py::handle value, const advlock::registry *registry) {
    if (py::isinstance<advlock::key>(value)) return value.cast<advlock::key>();
    if (PyUnicode_Check(value.ptr())) {
        const std::string name = value.cast<std::string>();
        return registry ? registry->find(name).key() : advlock::key::from_name(name);
    }
    if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr())) return key_from_python(value, py::none());
    if (PyTuple_Check(value.ptr()) && PyTuple_GET_SIZE(value.ptr()) == 2) {
        py::tuple pair = py::reinterpret_borrow<py::tuple>(value);
        return key_from_python(pair[0], pair[1]);
    }
    throw py::type_error("a lock key is an advlock.Key, a name (str), a bigint (int) or a pair (tuple of two "
                         "ints), got " + type_name(value));
}

std::string key_label(py::handle value, const advlock::key &key) {
    // As the core's own messages name a lock taken by name ("'daily_sales'
    // (key 100:1)"), quoting it as they do: control characters escaped, long
    // names cut, so a label is always safe to print.
    std::optional<std::string> name = key.name();
    if (!name && PyUnicode_Check(value.ptr())) name = value.cast<std::string>();  // a registry entry's own key
    if (!name) return key.to_string();
    return "'" + advlock::printable(*name) + "' (key " + key.to_string() + ")";
}

void register_keys(py::module_ &module) {
    module.attr("SLOTS_MAX") = ADVLOCK_SLOTS_MAX;
    py::class_<advlock::key>(module, "Key", R"doc(
A PostgreSQL advisory-lock key: a bigint, or a pair of int4 ("category, job id").
A key made from a name keeps the name (Key.name): MySQL sessions lock the name.

    Key(7001)            a bigint key
    Key(100, 1)          a pair key
    Key.from_name(s)     advlock's frozen scheme for names (SHA-256)
    Key.from_name_compat(s, prefix=0)   the with_advisory_lock gem's scheme
    Key.parse("100:1")   the text form the command line uses

Keys are values: equal keys name the same lock, and they can be dict keys.)doc")
        .def(py::init([](py::object first, py::object second) { return key_from_python(first, second); }),
             py::arg("value"), py::arg("second") = py::none())
        .def_static("from_name", [](const std::string &name) { return advlock::key::from_name(name); }, py::arg("name"),
                    "The advlock scheme: first 8 bytes of SHA-256('advlock:' + name). Raises BadKey for an empty, "
                    "too long (over 1024 bytes) or NUL-containing name.")
        .def_static("from_name_compat",
                    [](const std::string &name, std::int64_t prefix) { return advlock::key::from_name_compat(name, prefix); },
                    py::arg("name"), py::arg("prefix") = 0,
                    "The with_advisory_lock gem's scheme: (crc32(name) & 0x7fffffff, prefix & 0x7fffffff).")
        .def_static("parse", [](const std::string &text) { return advlock::key::parse(text); }, py::arg("text"),
                    "Parse '100:1' (pair), '-42' (bigint) or 'name:TEXT'. Raises BadKey.")
        .def_static("from_pg_locks",
                    [](std::uint32_t classid, std::uint32_t objid, std::int32_t objsubid) {
                        return advlock::key::from_pg_locks(advlock_pg_locks_key{classid, objid, objsubid});
                    },
                    py::arg("classid"), py::arg("objid"), py::arg("objsubid"),
                    "The key of a pg_locks row (locktype 'advisory').")
        .def_property_readonly("name", &advlock::key::name,
                               "The name the key was made from (from_name, 'name:TEXT', a registry entry without "
                               "a key of its own), else None. A MySQL session locks this name itself.")
        .def_property_readonly("is_pair", &advlock::key::is_pair)
        .def_property_readonly("pair", [](const advlock::key &k) -> py::object {
            if (!k.is_pair()) return py::none();
            return py::make_tuple(k.c_key().k1, k.c_key().k2);
        }, "(k1, k2) for a pair key, None for a bigint key.")
        .def_property_readonly("bigint", [](const advlock::key &k) -> py::object {
            if (k.is_pair()) return py::none();
            return py::int_(k.c_key().bigint);
        }, "The number of a bigint key, None for a pair key.")
        .def("slot", [](const advlock::key &k, py::handle slot) { return k.slot(count_from_python(slot, "slot")); },
             py::arg("slot"),
             "The key of slot `slot` (1..SLOTS_MAX) of this lock, as Lock.server_key of a lock taken with slots=N "
             "holds it: the frozen rule, first 8 bytes of SHA-256('advlock-slot:' + str(key) + '/' + slot) as a "
             "bigint (advlock_key_slot).")
        .def("to_pg_locks", [](const advlock::key &k) {
            const advlock_pg_locks_key pg = k.to_pg_locks();
            return py::make_tuple(pg.classid, pg.objid, pg.objsubid);
        }, "(classid, objid, objsubid) as pg_locks shows this key.")
        .def("__str__", &advlock::key::to_string)
        .def("__repr__", &key_repr)
        .def("__eq__", [](const advlock::key &a, py::object b) {
            return py::isinstance<advlock::key>(b) && a == b.cast<advlock::key>();
        })
        .def("__hash__", [](const advlock::key &k) {
            const advlock_key &c = k.c_key();
            if (k.is_pair()) return py::hash(py::make_tuple(2, c.k1, c.k2));
            return py::hash(py::make_tuple(1, c.bigint));
        })
        // A named key pickles as "name:TEXT", so it still locks its name on MySQL once unpickled.
        .def(py::pickle([](const advlock::key &k) {
                            return py::make_tuple(k.name() ? "name:" + *k.name() : k.to_string());
                        },
                        [](py::tuple state) { return advlock::key::parse(state[0].cast<std::string>()); }));

    py::class_<registry_entry_copy>(module, "RegistryEntry", "One lock of a registry file.")
        .def_readonly("name", &registry_entry_copy::name)
        .def_readonly("key", &registry_entry_copy::key)
        .def_readonly("description", &registry_entry_copy::description)
        .def_readonly("line", &registry_entry_copy::line, "The line of the file where the entry starts.")
        .def("__repr__", [](const registry_entry_copy &e) {
            return "RegistryEntry(name=" + std::string(py::repr(py::str(e.name))) + ", key=" + key_repr(e.key) + ")";
        });

    py::class_<advlock::registry>(module, "Registry", R"doc(
A registry file (TOML) naming each lock and its key; read with Registry.open(path).
registry["daily_sales"] is the entry (KeyError-like NotFound with a suggestion
when missing), registry.key(name) its key, iteration yields the entries.)doc")
        .def_static("open", [](const std::string &path) { return advlock::registry::open(path); }, py::arg("path"),
                    "Read a registry file. Raises FileError or RegistryError ('file:line: ...').")
        .def_static("parse",
                    [](const std::string &text, const std::string &origin) { return advlock::registry::parse(text, origin); },
                    py::arg("text"), py::arg("origin") = "<registry>")
        .def("__len__", &advlock::registry::size)
        .def("__getitem__", [](const advlock::registry &r, const std::string &name) { return copy_entry(r.find(name)); })
        .def("__contains__", [](const advlock::registry &r, const std::string &name) {
            try {
                r.find(name);
                return true;
            } catch (const advlock::not_found &) {
                return false;
            }
        })
        .def("__iter__", [](const advlock::registry &r) {
            py::list entries;
            for (std::size_t i = 0; i < r.size(); ++i) entries.append(copy_entry(r.at(i)));
            return py::iter(entries);
        })
        .def("key", [](const advlock::registry &r, const std::string &name) { return r.find(name).key(); },
             py::arg("name"), "The key of the named lock. Raises NotFound.")
        .def("find_key", [](const advlock::registry &r, const advlock::key &k) -> py::object {
            std::optional<advlock::registry_entry> entry = r.find(k);
            if (!entry) return py::none();
            return py::cast(copy_entry(*entry));
        }, py::arg("key"), "The entry with this key, or None.");

    module.def("to_key", [](py::handle value, py::object registry) {
        return to_key(value, registry.is_none() ? nullptr : &registry.cast<const advlock::registry &>());
    }, py::arg("value"), py::arg("registry") = py::none(),
    "The Key for what try_lock() accepts: a Key, a name (looked up in registry when given), an int, a pair.");
    module.def("key_label", [](py::handle value, py::object registry) {
        return key_label(value, to_key(value, registry.is_none() ? nullptr : &registry.cast<const advlock::registry &>()));
    }, py::arg("value"), py::arg("registry") = py::none(),
    "How advlock's messages name the lock value stands for: by the name given (\"'daily_sales' (key 100:1)\"), "
    "else by its key (\"100:1\").");
}

}  // namespace advlock_python
