// How every C entry point is written (DuckDB's capi school): the body runs
// inside guarded(), which turns any exception into a status and a last error,
// so no C++ exception ever crosses the ABI.
#pragma once

#include <cstdint>
#include <new>
#include <string>

#include "advlock.h"
#include "last_error.hpp"
#include "error.hpp"

namespace advlock::capi {

// Maps the exception being handled to a status (and records it).
advlock_status translate_current_exception(const char *function) noexcept;

// body(function) returns an advlock_status (OK, NOT_ACQUIRED...) or throws.
// It receives the entry point's name for its messages (__func__ inside a
// lambda would say "operator()").
template <typename Body>
advlock_status guarded(const char *function, Body &&body) noexcept {
    try {
        return body(function);
    } catch (...) {
        return translate_current_exception(function);
    }
}

// Throws InvalidArgument naming the function and the argument that was NULL.
template <typename T>
T *require(T *pointer, const char *function, const char *argument) {
    if (!pointer) {
        throw core::InvalidArgument(std::string(function) + ": argument '" + argument + "' is NULL");
    }
    return pointer;
}

// The length of a string argument: len, or strlen when ADVLOCK_NUL_TERMINATED.
std::size_t string_length(const char *text, std::size_t len);

// Copies text and its NUL into out, or throws InvalidArgument naming the size
// macro (size_name) that always suffices.
void copy_to_buffer(char *out, std::size_t out_size, const std::string &text, const char *function,
                    const char *size_name);

// A malloc'ed copy of text and its NUL, which the caller releases with advlock_free.
char *allocated_copy(const std::string &text);

// Throws InvalidArgument naming what (e.g. "lock options flags") when flags
// has a bit outside known.
void require_flags(unsigned flags, unsigned known, const char *function, const char *what);

// Throws InvalidArgument unless timeout_ms is 0..ADVLOCK_WAIT_MAX_MS or ADVLOCK_WAIT_FOREVER.
void require_timeout(std::int64_t timeout_ms, const char *function);

}  // namespace advlock::capi
