// Key derivation (both schemes), its building blocks, and the pg_locks mapping.
#include <gtest/gtest.h>

#include <string>

#include "error.hpp"
#include "keys/crc32.hpp"
#include "keys/key.hpp"
#include "keys/name_schemes.hpp"
#include "keys/sha256.hpp"
#include "support/key_vectors.hpp"

using namespace advlock::core;

namespace {

std::string hex(const Sha256Digest &digest) {
    static const char *digits = "0123456789abcdef";
    std::string out;
    for (const auto byte : digest) {
        out += digits[byte >> 4];
        out += digits[byte & 15];
    }
    return out;
}

}  // namespace

TEST(Sha256, MatchesFips180Examples) {
    EXPECT_EQ(hex(sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(hex(sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(hex(sha256(std::string(1000000, 'a'))),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PaddingBoundaries) {
    // 55, 56 and 64 bytes straddle the one-block / two-block padding cases.
    EXPECT_EQ(hex(sha256(std::string(55, 'a'))), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    EXPECT_EQ(hex(sha256(std::string(56, 'a'))), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    EXPECT_EQ(hex(sha256(std::string(64, 'a'))), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

TEST(Crc32, MatchesZlib) {
    EXPECT_EQ(crc32(""), 0u);
    EXPECT_EQ(crc32("123456789"), 0xCBF43926u);
    EXPECT_EQ(crc32("The quick brown fox jumps over the lazy dog"), 0x414FA339u);
}

TEST(KeyVectors, AdvlockSchemeMatchesEveryVector) {
    for (const auto &v : advlock::test::load_key_vectors().names) {
        SCOPED_TRACE(v.name);
        EXPECT_EQ(advlock_key_for_name(v.name), Key::bigint(v.advlock));
    }
}

TEST(KeyVectors, WithAdvisoryLockSchemeMatchesEveryVector) {
    for (const auto &v : advlock::test::load_key_vectors().names) {
        SCOPED_TRACE(v.name);
        EXPECT_EQ(with_advisory_lock_key_for_name(v.name, 0), Key::pair(v.compat_k1, v.compat_k2));
        EXPECT_EQ(with_advisory_lock_key_for_name(v.name, 42), Key::pair(v.compat42_k1, v.compat42_k2));
    }
}

TEST(KeyVectors, PgLocksMappingMatchesEveryVectorBothWays) {
    for (const auto &v : advlock::test::load_key_vectors().pg_locks) {
        const Key key = v.is_pair ? Key::pair(v.k1, v.k2) : Key::bigint(v.bigint);
        const PgLocksKey pg = key.to_pg_locks();
        EXPECT_EQ(pg.classid, v.classid);
        EXPECT_EQ(pg.objid, v.objid);
        EXPECT_EQ(pg.objsubid, v.objsubid);
        EXPECT_EQ(Key::from_pg_locks({v.classid, v.objid, v.objsubid}), key);
    }
}

TEST(NameSchemes, CompatPrefixIsMaskedTo31Bits) {
    EXPECT_EQ(with_advisory_lock_key_for_name("a", -1).k2(), 0x7fffffff);
    EXPECT_EQ(with_advisory_lock_key_for_name("a", 0x1'0000'0005LL).k2(), 5);
    EXPECT_GE(with_advisory_lock_key_for_name("a", 0).k1(), 0);
}

TEST(NameSchemes, AcceptsNamesUpToTheLimit) {
    EXPECT_NO_THROW(advlock_key_for_name(std::string(kMaxNameBytes, 'x')));
    EXPECT_NO_THROW(advlock_key_for_name("\xF0\x9F\x94\x92 lock"));  // a 4-byte code point
}

TEST(NameSchemes, RefusesBadNamesWithReasons) {
    const auto message_for = [](const std::string &name) {
        try {
            advlock_key_for_name(name);
        } catch (const BadKey &e) {
            EXPECT_EQ(e.status(), ADVLOCK_EKEY);
            return std::string(e.what());
        }
        ADD_FAILURE() << "no error for a bad name";
        return std::string();
    };
    EXPECT_NE(message_for("").find("empty"), std::string::npos);
    EXPECT_NE(message_for(std::string(kMaxNameBytes + 1, 'x')).find("1025 bytes long; the limit is 1024"),
              std::string::npos);
    EXPECT_NE(message_for(std::string("ab\0c", 4)).find("NUL byte at offset 2"), std::string::npos);
    EXPECT_NE(message_for("bad\xC3(").find("not valid UTF-8 (at byte 3)"), std::string::npos);
    EXPECT_NE(message_for("\xED\xA0\x80").find("not valid UTF-8"), std::string::npos);  // a surrogate
    EXPECT_NE(message_for("\xC0\xAF").find("not valid UTF-8"), std::string::npos);      // overlong
    // The compatibility scheme applies the same rules.
    EXPECT_THROW(with_advisory_lock_key_for_name("", 0), BadKey);
}

TEST(Key, FromPgLocksRefusesOtherObjsubids) {
    try {
        Key::from_pg_locks({1, 2, 3});
        FAIL() << "objsubid 3 accepted";
    } catch (const BadKey &e) {
        EXPECT_NE(std::string(e.what()).find("objsubid 3"), std::string::npos);
    }
}

TEST(Key, SpacesNeverCompareEqual) {
    EXPECT_NE(Key::bigint(0), Key::pair(0, 0));
    EXPECT_EQ(Key::pair(0, 0).to_pg_locks().classid, Key::bigint(0).to_pg_locks().classid);
    EXPECT_NE(KeyHash{}(Key::pair(1, 2)), KeyHash{}(Key::bigint((1LL << 32) | 2)));
}
