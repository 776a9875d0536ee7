// Sessions through the C ABI, without a server: options, NULL handles, and
// connection failures that must not leak the password.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <utility>

#include "advlock.h"
#include "support/targets.hpp"

TEST(SessionsC, OptionsInitSetsTheVersionAndRefusesUnknownOnes) {
    advlock_session_options options;
    options.application_name = "garbage";
    ASSERT_EQ(advlock_session_options_init(&options, ADVLOCK_SESSION_OPTIONS_VERSION), ADVLOCK_OK);
    EXPECT_EQ(options.version, static_cast<unsigned>(ADVLOCK_SESSION_OPTIONS_VERSION));
    EXPECT_EQ(options.application_name, nullptr);
    EXPECT_EQ(advlock_session_options_init(&options, 0), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_session_options_init(&options, 99), ADVLOCK_EINVAL);
    EXPECT_NE(std::string(advlock_error_last()->message).find("options version 99 is unknown"), std::string::npos);
    EXPECT_EQ(advlock_session_options_init(nullptr, 1), ADVLOCK_EINVAL);
}

// A program built against an older header passes a shorter struct: init
// must not write past it (the guard bytes after it stay as they were).
template <typename Options>
bool init_stays_within(advlock_status (*init)(Options *, unsigned), std::size_t version_1_size) {
    alignas(Options) unsigned char caller[sizeof(Options) + 8];
    std::memset(caller, 0xAB, sizeof caller);
    if (init(reinterpret_cast<Options *>(caller), 1) != ADVLOCK_OK) return false;
    for (std::size_t i = version_1_size; i < sizeof caller; ++i) {
        if (caller[i] != 0xAB) return false;
    }
    return reinterpret_cast<Options *>(caller)->version == 1;
}

TEST(SessionsC, OptionsInitWritesOnlyAVersion1StructsBytes) {
    EXPECT_TRUE(init_stays_within(advlock_session_options_init, offsetof(advlock_session_options, stop_grace_ms)));
    EXPECT_TRUE(init_stays_within(advlock_lock_options_init, offsetof(advlock_lock_options, slots)));
}

TEST(SessionsC, OpenRefusesNullsAndUnknownOptionVersions) {
    advlock_session *session = reinterpret_cast<advlock_session *>(0x1);
    EXPECT_EQ(advlock_session_open(&session, nullptr, nullptr), ADVLOCK_EINVAL);
    EXPECT_EQ(session, nullptr);
    EXPECT_EQ(advlock_session_open(nullptr, "", nullptr), ADVLOCK_EINVAL);

    advlock_session_options options;
    ASSERT_EQ(advlock_session_options_init(&options, ADVLOCK_SESSION_OPTIONS_VERSION), ADVLOCK_OK);
    options.version = 1000;
    EXPECT_EQ(advlock_session_open(&session, "host=127.0.0.1 port=1", &options), ADVLOCK_EINVAL);
    EXPECT_EQ(session, nullptr);
}

TEST(SessionsC, UnreachableServerIsEconnectWithoutThePassword) {
    advlock_session *session = nullptr;
    // Port 1 on loopback: nothing listens there, the connection is refused at once.
    EXPECT_EQ(advlock_session_open(&session, "postgresql://app:Sup3rS3cret@127.0.0.1:1/db", nullptr),
              ADVLOCK_ECONNECT);
    EXPECT_EQ(session, nullptr);
    const std::string message = advlock_error_last()->message;
    EXPECT_NE(message.find("cannot connect to PostgreSQL"), std::string::npos) << message;
    EXPECT_EQ(message.find("Sup3rS3cret"), std::string::npos) << message;
}

TEST(SessionsC, MalformedUrlsAreRefusedWithoutThePassword) {
    advlock_session *session = nullptr;
    // What libpq cannot parse is refused before it connects (EINVAL); a port
    // that is no number is libpq's to find when it connects (ECONNECT).
    const std::pair<const char *, advlock_status> cases[] = {
        {"postgresql://app:Sup3rS3cret@127.0.0.1:notaport/db", ADVLOCK_ECONNECT},
        {"postgresql://app:Sup3rS3cret%zz@127.0.0.1/db", ADVLOCK_EINVAL},
        {"postgresql://app:Sup3r/S3cret@127.0.0.1/db", ADVLOCK_EINVAL},
        {"host=127.0.0.1 password=Sup3rS3cret bogus_option=1", ADVLOCK_EINVAL},
    };
    for (const auto &[url, status] : cases) {
        EXPECT_EQ(advlock_session_open(&session, url, nullptr), status) << url;
        const std::string message = advlock_error_last()->message;
        EXPECT_EQ(message.find("Sup3r"), std::string::npos) << message;
        EXPECT_EQ(message.find("S3cret"), std::string::npos) << message;
    }
}

TEST(SessionsC, NullHandlesAreEinvalOrIgnored) {
    advlock_lock *lock = reinterpret_cast<advlock_lock *>(0x1);
    const advlock_key key = advlock_key_bigint(1);
    EXPECT_EQ(advlock_session_try_lock(&lock, nullptr, advlock::test::of_key(key), ADVLOCK_EXCLUSIVE), ADVLOCK_EINVAL);
    EXPECT_EQ(lock, nullptr);
    EXPECT_EQ(std::string(advlock_error_last()->message), "advlock_session_try_lock: argument 'session' is NULL");
    EXPECT_EQ(advlock_session_try_lock(nullptr, nullptr, advlock::test::of_key(key), ADVLOCK_EXCLUSIVE), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_lock_release(nullptr), ADVLOCK_EINVAL);
    advlock_lock_free(nullptr);
    advlock_session_free(nullptr);
}
