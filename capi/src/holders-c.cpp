// Listing holders and waiters.
#include <optional>
#include <vector>

#include "entry_point.hpp"
#include "handles.hpp"

using advlock::capi::guarded;
using advlock::capi::require;
namespace core = advlock::core;

// The core's rows, and C views whose strings point into them.
struct advlock_holders {
    std::vector<core::Holder> rows;
    std::vector<advlock_holder> views;
};

namespace {

const char *c_string(const std::optional<std::string> &text) { return text ? text->c_str() : nullptr; }

advlock_holder view_of(const core::Holder &h) {
    advlock_holder view{};
    view.key = advlock::capi::to_c(h.key);
    view.lock_name = h.lock_name.empty() ? nullptr : h.lock_name.c_str();
    view.mode = h.mode == core::LockMode::Shared ? ADVLOCK_SHARED : ADVLOCK_EXCLUSIVE;
    view.granted = h.granted;
    view.pid = h.pid;
    view.is_self = h.is_self;
    view.user = c_string(h.user);
    view.application_name = c_string(h.application_name);
    view.client_addr = c_string(h.client_addr);
    view.client_hostname = c_string(h.client_hostname);
    view.backend_start_unix_us = h.backend_start_unix_us;
    view.wait_start_unix_us = h.wait_start_unix_us;
    view.details_hidden = h.details_hidden;
    return view;
}

}  // namespace

extern "C" {

advlock_status advlock_session_holders(advlock_holders **out, advlock_session *session,
                                       const advlock_registry *registry, const advlock_key *only_key) {
    if (out) *out = nullptr;
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(session, function, "session");
        std::optional<core::Key> only;
        if (only_key) only = advlock::capi::to_core(*only_key, function);
        auto list = std::make_unique<advlock_holders>();
        list->rows = session->session->holders(registry ? &registry->registry : nullptr, only);
        list->views.reserve(list->rows.size());
        for (const core::Holder &row : list->rows) list->views.push_back(view_of(row));
        *out = list.release();
        return ADVLOCK_OK;
    });
}

size_t advlock_holders_count(const advlock_holders *holders) { return holders ? holders->views.size() : 0; }

const advlock_holder *advlock_holders_at(const advlock_holders *holders, size_t index) {
    if (!holders || index >= holders->views.size()) return nullptr;
    return &holders->views[index];
}

void advlock_holders_free(advlock_holders *holders) { delete holders; }

}  // extern "C"
