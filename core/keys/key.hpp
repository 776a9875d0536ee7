// A PostgreSQL advisory-lock key: one bigint, or a pair of int4 (DESIGN.md §3),
// and how it appears in pg_locks.
#pragma once

#include <cstdint>
#include <functional>

namespace advlock::core {

// pg_locks columns of an advisory lock: classid and objid are oids (unsigned).
struct PgLocksKey {
    std::uint32_t classid = 0;
    std::uint32_t objid = 0;
    std::int32_t objsubid = 0;  // 1: bigint, 2: pair
};

class Key {
public:
    enum class Space : std::int32_t { Bigint = 1, Pair = 2 };  // = pg_locks.objsubid

    static Key bigint(std::int64_t value) { return Key(Space::Bigint, value, 0, 0); }
    static Key pair(std::int32_t k1, std::int32_t k2) { return Key(Space::Pair, 0, k1, k2); }

    // Throws BadKey when objsubid is neither 1 nor 2.
    static Key from_pg_locks(const PgLocksKey &pg);

    Space space() const { return space_; }
    bool is_pair() const { return space_ == Space::Pair; }
    std::int64_t bigint_value() const { return bigint_; }
    std::int32_t k1() const { return k1_; }
    std::int32_t k2() const { return k2_; }

    PgLocksKey to_pg_locks() const;

    friend bool operator==(const Key &a, const Key &b) {
        return a.space_ == b.space_ && a.bigint_ == b.bigint_ && a.k1_ == b.k1_ && a.k2_ == b.k2_;
    }
    friend bool operator!=(const Key &a, const Key &b) { return !(a == b); }
    // A total order: bigint keys by value, then pairs by (k1, k2). Lock sets
    // are taken in it (LockSession::takes_before).
    friend bool operator<(const Key &a, const Key &b) {
        if (a.space_ != b.space_) return a.space_ < b.space_;
        if (a.bigint_ != b.bigint_) return a.bigint_ < b.bigint_;
        if (a.k1_ != b.k1_) return a.k1_ < b.k1_;
        return a.k2_ < b.k2_;
    }

private:
    Key(Space space, std::int64_t bigint, std::int32_t k1, std::int32_t k2)
        : space_(space), bigint_(bigint), k1_(k1), k2_(k2) {}

    Space space_;
    std::int64_t bigint_;  // 0 for pairs, so == can compare all fields
    std::int32_t k1_, k2_; // 0 for bigints
};

struct KeyHash {
    std::size_t operator()(const Key &key) const noexcept {
        const auto pg = key.to_pg_locks();
        const std::uint64_t mixed = (std::uint64_t{pg.classid} << 32 | pg.objid) * 0x9E3779B97F4A7C15ull;
        return static_cast<std::size_t>(mixed ^ static_cast<std::uint64_t>(pg.objsubid));
    }
};

}  // namespace advlock::core
