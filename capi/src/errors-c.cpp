// Status names, the thread-local last error, and the exception translation
// every entry point uses.
#include <cstdlib>
#include <cstring>
#include <new>

#include "entry_point.hpp"
#include "text/duration.hpp"

namespace advlock::capi {

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

const char *advlock_status_name(advlock_status status) {
    switch (status) {
        case ADVLOCK_OK: return "ADVLOCK_OK";
        case ADVLOCK_NOT_ACQUIRED: return "ADVLOCK_NOT_ACQUIRED";
        case ADVLOCK_ERROR: return "ADVLOCK_ERROR";
        case ADVLOCK_ENOMEM: return "ADVLOCK_ENOMEM";
        case ADVLOCK_EINVAL: return "ADVLOCK_EINVAL";
        case ADVLOCK_EKEY: return "ADVLOCK_EKEY";
        case ADVLOCK_EREGISTRY: return "ADVLOCK_EREGISTRY";
        case ADVLOCK_ENOTFOUND: return "ADVLOCK_ENOTFOUND";
        case ADVLOCK_EIO: return "ADVLOCK_EIO";
        case ADVLOCK_EMISUSE: return "ADVLOCK_EMISUSE";
        case ADVLOCK_ECONNECT: return "ADVLOCK_ECONNECT";
        case ADVLOCK_ESTANDBY: return "ADVLOCK_ESTANDBY";
        case ADVLOCK_EREADONLY: return "ADVLOCK_EREADONLY";
        case ADVLOCK_EPOOLER: return "ADVLOCK_EPOOLER";
        case ADVLOCK_ELOST: return "ADVLOCK_ELOST";
        case ADVLOCK_ECANCELED: return "ADVLOCK_ECANCELED";
        case ADVLOCK_ECAPACITY: return "ADVLOCK_ECAPACITY";
        case ADVLOCK_EDEADLOCK: return "ADVLOCK_EDEADLOCK";
        case ADVLOCK_EPERMISSION: return "ADVLOCK_EPERMISSION";
        case ADVLOCK_ESERVER: return "ADVLOCK_ESERVER";
        case ADVLOCK_EUNSUPPORTED: return "ADVLOCK_EUNSUPPORTED";
        case ADVLOCK_ECONFIG: return "ADVLOCK_ECONFIG";
        case ADVLOCK_ECLUSTER: return "ADVLOCK_ECLUSTER";
        case ADVLOCK_EUNSAFEDIR: return "ADVLOCK_EUNSAFEDIR";
        default: break;
    }
    return "ADVLOCK_UNKNOWN_STATUS";
}

int advlock_status_is_unsafe_target(advlock_status status) {
    return status == ADVLOCK_ESTANDBY || status == ADVLOCK_EREADONLY || status == ADVLOCK_EPOOLER ||
           status == ADVLOCK_ECLUSTER || status == ADVLOCK_EUNSAFEDIR;
}

const char *advlock_version(void) { return ADVLOCK_VERSION; }

int advlock_version_number(void) { return ADVLOCK_VERSION_NUMBER; }

}  // extern "C"
