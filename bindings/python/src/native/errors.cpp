// errors.cpp: advlock::error (any status) → the matching class of
// advlock/errors.py, which owns the exception hierarchy. The mapping from
// status to class lives there too (errors.class_for_status), built from the
// library's own status table (status_table() here), so no number is restated.
#include <cmath>

#include "binding.hpp"

namespace advlock_python {

namespace {

void raise_python_error(const advlock::error &error) {
    py::gil_scoped_acquire gil;
    py::module_ errors = py::module_::import("advlock.errors");
    py::object type = errors.attr("class_for_status")(static_cast<int>(error.status()));
    py::object instance = type(py::str(error.what()), py::arg("status") = static_cast<int>(error.status()),
                               py::arg("sqlstate") = error.sqlstate());
    PyErr_SetObject(type.ptr(), instance.ptr());
}

}  // namespace

bool interpreter_alive() {
#if PY_VERSION_HEX >= 0x030D0000
    return Py_IsInitialized() && !Py_IsFinalizing();
#else
    return Py_IsInitialized() && !_Py_IsFinalizing();
#endif
}

std::int64_t timeout_ms_from_seconds(py::handle seconds) {
    if (seconds.is_none()) return ADVLOCK_WAIT_FOREVER;
    if (PyBool_Check(seconds.ptr()) || !(PyFloat_Check(seconds.ptr()) || PyLong_Check(seconds.ptr()))) {
        throw py::type_error("timeout must be None (wait as long as it takes) or a number of seconds, got " +
                             std::string(py::str(py::type::of(seconds).attr("__name__"))));
    }
    const double value = seconds.cast<double>();
    // The C ABI takes whole milliseconds up to 2^31-1; round a fraction up so
    // that a tiny positive timeout still waits a little instead of not at all.
    if (!std::isfinite(value) || value < 0 || value > 2147483.647) {
        throw advlock::invalid_argument(ADVLOCK_EINVAL,
                                        "timeout must be None (wait as long as it takes) or 0 to 2147483.647 "
                                        "seconds, got " + std::string(py::repr(seconds)),
                                        "");
    }
    return static_cast<std::int64_t>(std::ceil(value * 1000.0));
}

void register_errors(py::module_ &module) {
    py::register_exception_translator([](std::exception_ptr thrown) {
        try {
            if (thrown) std::rethrow_exception(thrown);
        } catch (const advlock::error &error) {
            raise_python_error(error);
        }
    });
    module.def("status_table", [] {
        py::list rows;
        for (std::size_t i = 0; const advlock_status_info *row = advlock_status_at(i); ++i) {
            rows.append(py::make_tuple(static_cast<int>(row->status), row->name, row->kind, row->Kind, row->parent,
                                       row->summary));
        }
        return rows;
    }, "The library's status table (advlock_status_at): (status, name, kind, class_name, parent, summary) rows, "
       "e.g. (-13, 'ADVLOCK_ELOST', 'lock_lost', 'LockLost', 'error', '...').");
    module.def("status_name", [](int status) { return std::string(advlock_status_name(static_cast<advlock_status>(status))); },
               py::arg("status"), "The C ABI's name of a status code, e.g. 'ADVLOCK_ELOST'.");
}

}  // namespace advlock_python
