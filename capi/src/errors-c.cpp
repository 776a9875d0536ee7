// Status names, the thread-local last error, and the exception translation
// every entry point uses.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <new>

#include "entry_point.hpp"
#include "text/duration.hpp"

namespace advlock::capi {

// advlock/status_table.h as data: one row per status, in table order.
#define ADVLOCK_STATUS_ROW(status, kind, Kind, parent, summary) \
    advlock_status_info{status, #status, #kind, #Kind, #parent, summary},
constexpr advlock_status_info kStatusTable[] = {ADVLOCK_STATUS_TABLE(ADVLOCK_STATUS_ROW)};
#undef ADVLOCK_STATUS_ROW

namespace {

struct LastError {
    std::string message = "no error";
    std::string sqlstate;
    advlock_error view{ADVLOCK_OK, nullptr, nullptr};

    const advlock_error *refresh() {
        view.message = message.c_str();
        view.sqlstate = sqlstate.c_str();
        return &view;
    }
};

LastError &last_error() {
    thread_local LastError error;
    return error;
}

}  // namespace

advlock_status set_last_error(advlock_status status, const std::string &message,
                              const std::string &sqlstate) noexcept {
    LastError &error = last_error();
    error.view.status = status;
    try {
        error.message = message;
        error.sqlstate = sqlstate;
    } catch (...) {  // out of memory while recording: keep a static message
        error.message.clear();
        error.sqlstate.clear();
    }
    return status;
}

advlock_status translate_current_exception(const char *function) noexcept {
    try {
        throw;
    } catch (const core::Error &e) {
        return set_last_error(e.status(), e.what(), e.sqlstate());
    } catch (const std::bad_alloc &) {
        return set_last_error(ADVLOCK_ENOMEM, std::string(function) + ": out of memory");
    } catch (const std::exception &e) {
        return set_last_error(ADVLOCK_ERROR, std::string(function) + ": internal error (a bug in advlock, "
                                             "please report it): " + e.what());
    } catch (...) {
        return set_last_error(ADVLOCK_ERROR, std::string(function) + ": internal error (a bug in advlock, "
                                             "please report it): unknown exception");
    }
}

std::size_t string_length(const char *text, std::size_t len) {
    return len == ADVLOCK_NUL_TERMINATED ? std::strlen(text) : len;
}

void copy_to_buffer(char *out, std::size_t out_size, const std::string &text, const char *function,
                    const char *size_name) {
    if (text.size() + 1 > out_size) {
        throw core::InvalidArgument(std::string(function) + ": the buffer holds " + std::to_string(out_size) +
                                    " bytes but the text needs " + std::to_string(text.size() + 1) + "; use " +
                                    size_name);
    }
    std::memcpy(out, text.c_str(), text.size() + 1);
}

char *allocated_copy(const std::string &text) {
    char *copy = static_cast<char *>(std::malloc(text.size() + 1));
    if (!copy) throw std::bad_alloc();
    std::memcpy(copy, text.c_str(), text.size() + 1);
    return copy;
}

static_assert(ADVLOCK_WAIT_MAX_MS == core::kLongestWaitMs, "the C ABI's longest wait is the core's");

void require_flags(unsigned flags, unsigned known, const char *function, const char *what) {
    if ((flags & ~known) != 0) {
        char bits[16];
        std::snprintf(bits, sizeof bits, "0x%x", flags & ~known);
        throw core::InvalidArgument(std::string(function) + ": " + what + " has bits " + bits +
                                    " this library (version " ADVLOCK_VERSION ") does not know; "
                                    "use the ADVLOCK_* flag macros of its advlock.h");
    }
}

void require_timeout(std::int64_t timeout_ms, const char *function) {
    if (timeout_ms < ADVLOCK_WAIT_FOREVER || timeout_ms > ADVLOCK_WAIT_MAX_MS) {
        throw core::InvalidArgument(std::string(function) + ": timeout_ms " + std::to_string(timeout_ms) +
                                    " is out of range: give 0 to " + std::to_string(ADVLOCK_WAIT_MAX_MS) +
                                    " milliseconds (ADVLOCK_WAIT_MAX_MS, " + core::kLongestWaitText +
                                    "), or ADVLOCK_WAIT_FOREVER");
    }
}

}  // namespace advlock::capi

using advlock::capi::last_error;

extern "C" {

const advlock_error *advlock_error_last(void) { return last_error().refresh(); }

void advlock_error_clear(void) { advlock::capi::set_last_error(ADVLOCK_OK, "no error"); }

const advlock_status_info *advlock_status_at(size_t index) {
    return index < std::size(advlock::capi::kStatusTable) ? &advlock::capi::kStatusTable[index] : nullptr;
}

const advlock_status_info *advlock_status_info_of(advlock_status status) {
    for (const advlock_status_info &info : advlock::capi::kStatusTable) {
        if (info.status == status) return &info;
    }
    return nullptr;
}

const char *advlock_status_name(advlock_status status) {
    const advlock_status_info *info = advlock_status_info_of(status);
    return info ? info->name : "ADVLOCK_UNKNOWN_STATUS";
}

int advlock_status_is_unsafe_target(advlock_status status) {
    const advlock_status_info *info = advlock_status_info_of(status);
    return info && std::strcmp(info->parent, "unsafe_target") == 0;
}

const char *advlock_version(void) { return ADVLOCK_VERSION; }

int advlock_version_number(void) { return ADVLOCK_VERSION_NUMBER; }

}  // extern "C"
