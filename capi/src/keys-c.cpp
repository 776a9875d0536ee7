// Key derivation, text and pg_locks conversions.
#include <cstring>

#include "entry_point.hpp"
#include "handles.hpp"
#include "keys/key_text.hpp"
#include "keys/name_schemes.hpp"
#include "keys/slot_keys.hpp"

namespace advlock::capi {

core::Key to_core(const advlock_key &key, const char *function) {
    switch (key.space) {
        case ADVLOCK_KEY_BIGINT: return core::Key::bigint(key.bigint);
        case ADVLOCK_KEY_PAIR: return core::Key::pair(key.k1, key.k2);
        default: break;
    }
    throw core::InvalidArgument(std::string(function) + ": key space " + std::to_string(key.space) +
                                " is neither ADVLOCK_KEY_BIGINT (1) nor ADVLOCK_KEY_PAIR (2); "
                                "build keys with advlock_key_bigint/advlock_key_pair");
}

advlock_key to_c(const core::Key &key) {
    return key.is_pair() ? advlock_key_pair(key.k1(), key.k2()) : advlock_key_bigint(key.bigint_value());
}

core::LockTarget to_core(const advlock_target &target, const char *function) {
    const core::Key key = to_core(target.key, function);
    if (!target.name) return key;
    core::LockTarget named = core::LockTarget::named({target.name, string_length(target.name, target.name_len)});
    if (!(named.key() == key)) {
        throw core::BadKey(std::string(function) + ": the target's key " + core::format_key(key) +
                           " is not the advlock key of its name " + named.describe() +
                           "; make named targets with advlock_target_from_name, or leave name NULL");
    }
    return named;
}

advlock_target named_if_its_key(const advlock_key &key, const char *name) {
    advlock_target target{key, nullptr, 0};
    if (!name) return target;
    advlock_key of_name;
    if (advlock_key_from_name(&of_name, name, ADVLOCK_NUL_TERMINATED) == ADVLOCK_OK &&
        advlock_key_equal(&of_name, &key)) {
        target.name = name;
        target.name_len = std::strlen(name);
    }
    return target;
}

}  // namespace advlock::capi

using advlock::capi::guarded;
using advlock::capi::require;
using advlock::capi::string_length;
namespace core = advlock::core;

extern "C" {

advlock_key advlock_key_bigint(int64_t value) {
    advlock_key key{};
    key.space = ADVLOCK_KEY_BIGINT;
    key.bigint = value;
    return key;
}

advlock_key advlock_key_pair(int32_t k1, int32_t k2) {
    advlock_key key{};
    key.space = ADVLOCK_KEY_PAIR;
    key.k1 = k1;
    key.k2 = k2;
    return key;
}

advlock_status advlock_key_slot(advlock_key *out, const advlock_key *key, unsigned slot) {
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(key, function, "key");
        *out = advlock::capi::to_c(core::slot_key(advlock::capi::to_core(*key, function), slot));
        return ADVLOCK_OK;
    });
}

advlock_status advlock_key_from_name(advlock_key *out, const char *name, size_t name_len) {
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(name, function, "name");
        *out = advlock::capi::to_c(core::advlock_key_for_name({name, string_length(name, name_len)}));
        return ADVLOCK_OK;
    });
}

advlock_status advlock_key_from_name_compat(advlock_key *out, const char *name, size_t name_len,
                                            int64_t prefix) {
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(name, function, "name");
        *out = advlock::capi::to_c(
            core::with_advisory_lock_key_for_name({name, string_length(name, name_len)}, prefix));
        return ADVLOCK_OK;
    });
}

advlock_status advlock_key_parse(advlock_key *out, const char *text, size_t text_len) {
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(text, function, "text");
        *out = advlock::capi::to_c(core::parse_key({text, string_length(text, text_len)}));
        return ADVLOCK_OK;
    });
}

advlock_target advlock_target_of_key(advlock_key key) { return advlock_target{key, nullptr, 0}; }

advlock_status advlock_target_from_name(advlock_target *out, const char *name, size_t name_len) {
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(name, function, "name");
        const std::size_t length = string_length(name, name_len);
        *out = advlock_target{advlock::capi::to_c(core::advlock_key_for_name({name, length})), name, length};
        return ADVLOCK_OK;
    });
}

advlock_status advlock_target_parse(advlock_target *out, const char *text, size_t text_len) {
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(text, function, "text");
        const std::string_view whole{text, string_length(text, text_len)};
        constexpr std::string_view name_prefix = "name:";
        if (whole.substr(0, name_prefix.size()) == name_prefix) {
            const std::string_view name = whole.substr(name_prefix.size());
            *out = advlock_target{advlock::capi::to_c(core::advlock_key_for_name(name)), name.data(), name.size()};
        } else {
            *out = advlock_target{advlock::capi::to_c(core::parse_key(whole)), nullptr, 0};
        }
        return ADVLOCK_OK;
    });
}

advlock_status advlock_key_format(char *out, size_t out_size, const advlock_key *key) {
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(key, function, "key");
        advlock::capi::copy_to_buffer(out, out_size, core::format_key(advlock::capi::to_core(*key, function)),
                                      function, "ADVLOCK_KEY_TEXT_SIZE");
        return ADVLOCK_OK;
    });
}

int advlock_key_equal(const advlock_key *a, const advlock_key *b) {
    if (!a || !b) return 0;
    if (a->space != b->space) return 0;
    if (a->space == ADVLOCK_KEY_BIGINT) return a->bigint == b->bigint;
    if (a->space == ADVLOCK_KEY_PAIR) return a->k1 == b->k1 && a->k2 == b->k2;
    return 0;
}

advlock_status advlock_key_to_pg_locks(advlock_pg_locks_key *out, const advlock_key *key) {
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(key, function, "key");
        const core::PgLocksKey pg = advlock::capi::to_core(*key, function).to_pg_locks();
        *out = advlock_pg_locks_key{pg.classid, pg.objid, pg.objsubid};
        return ADVLOCK_OK;
    });
}

advlock_status advlock_key_from_pg_locks(advlock_key *out, const advlock_pg_locks_key *pg) {
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(pg, function, "pg");
        *out = advlock::capi::to_c(core::Key::from_pg_locks({pg->classid, pg->objid, pg->objsubid}));
        return ADVLOCK_OK;
    });
}

}  // extern "C"
