// Listing holders and waiters.
#include <functional>
#include <optional>
#include <vector>

#include "entry_point.hpp"
#include "handles.hpp"

using advlock::capi::guarded;
using advlock::capi::require;
namespace core = advlock::core;

// The core's rows, and C views whose strings point into them.
struct advlock_holders {
    core::HolderList list;
    std::vector<advlock_holder> views;
};

namespace {

const char *c_string(const std::optional<std::string> &text) { return text ? text->c_str() : nullptr; }

advlock_holder view_of(const core::Holder &h) {
    advlock_holder view{};
    view.lock_name = h.lock_name.empty() ? nullptr : h.lock_name.c_str();
    view.target = advlock::capi::named_if_its_key(advlock::capi::to_c(h.key), view.lock_name);
    view.mode = h.mode == core::LockMode::Shared ? ADVLOCK_SHARED : ADVLOCK_EXCLUSIVE;
    view.flags = (h.granted ? ADVLOCK_HOLDER_GRANTED : 0u) | (h.is_self ? ADVLOCK_HOLDER_SELF : 0u) |
                 (h.details_hidden ? ADVLOCK_HOLDER_DETAILS_HIDDEN : 0u);
    view.server_id = h.pid;
    view.user = c_string(h.user);
    view.application_name = c_string(h.application_name);
    view.client_addr = c_string(h.client_addr);
    view.client_hostname = c_string(h.client_hostname);
    view.backend_start_unix_us = h.backend_start_unix_us;
    view.wait_start_unix_us = h.wait_start_unix_us;
    return view;
}

}  // namespace

namespace {

advlock_status list_holders(const char *name, advlock_holders **out, advlock_session *session,
                            const advlock_registry *registry,
                            const std::function<std::optional<core::LockTarget>(const char *)> &only) {
    if (out) *out = nullptr;
    return guarded(name, [&](const char *function) {
        require(out, function, "out");
        require(session, function, "session");
        const std::optional<core::LockTarget> only_target = only(function);
        auto list = std::make_unique<advlock_holders>();
        list->list = session->session->holders(registry ? &registry->registry : nullptr, only_target);
        list->views.reserve(list->list.rows.size());
        for (const core::Holder &row : list->list.rows) list->views.push_back(view_of(row));
        *out = list.release();
        return ADVLOCK_OK;
    });
}

}  // namespace

extern "C" {

advlock_status advlock_session_holders(advlock_holders **out, advlock_session *session,
                                       const advlock_registry *registry, const advlock_target *only) {
    return list_holders(__func__, out, session, registry, [&](const char *function) -> std::optional<core::LockTarget> {
        if (!only) return std::nullopt;
        return advlock::capi::to_core(*only, function);
    });
}

const char *advlock_holders_note(const advlock_holders *holders) {
    return holders && !holders->list.note.empty() ? holders->list.note.c_str() : nullptr;
}

size_t advlock_holders_count(const advlock_holders *holders) { return holders ? holders->views.size() : 0; }

const advlock_holder *advlock_holders_at(const advlock_holders *holders, size_t index) {
    if (!holders || index >= holders->views.size()) return nullptr;
    return &holders->views[index];
}

void advlock_holders_free(advlock_holders *holders) { delete holders; }

}  // extern "C"
