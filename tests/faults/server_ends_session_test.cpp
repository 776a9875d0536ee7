// The server ends the lock session: the watchdog must notice without any call
// from the job, fire the lost callback exactly once, and make every later call
// say LOST. Real servers only: pg_terminate_backend, idle_session_timeout, a
// crash of another backend, fast and immediate restarts.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstring>
#include <thread>
#include <string>

#include "advlock.h"
#include "support/c_handles.hpp"
#include "support/lost_recorder.hpp"
#include "support/scripted_server.hpp"

using namespace advlock::test;

namespace {

Session open_watched(LostRecorder &recorder, const std::string &url = postgres_url(),
                     const char *application_name = nullptr) {
    advlock_session_options options;
    advlock_session_options_init(&options, ADVLOCK_SESSION_OPTIONS_VERSION);
    options.application_name = application_name;
    options.on_lost = &LostRecorder::callback;
    options.on_lost_payload = &recorder;
    advlock_session *session = nullptr;
    EXPECT_EQ(advlock_session_open(&session, url.c_str(), &options), ADVLOCK_OK) << advlock_error_last()->message;
    return Session(session);
}

void restart(const ScriptedServer &server, const char *mode) {
    const std::string command = std::string(ADVLOCK_SOURCE_DIR) + "/scripts/pg-restart.sh " + server.state_dir() +
                                " " + mode;
    ASSERT_EQ(std::system(command.c_str()), 0);
}

}  // namespace

TEST(ServerEndsSession, TerminateFiresTheCallbackOnceAndEveryLaterCallIsLost) {
    LostRecorder recorder;
    Session session = open_watched(recorder);
    const advlock_key key = test_key();
    Lock held = take(session, key);
    ASSERT_NE(held, nullptr);
    ASSERT_EQ(advlock_session_check(session.get()), ADVLOCK_OK);

    Psql psql;
    psql.query("SELECT pg_terminate_backend($1::int)", {std::to_string(backend_pid(session))});
    const std::string why = recorder.wait();  // no call of ours made the watchdog find out
    EXPECT_NE(why.find("57P01"), std::string::npos) << why;
    EXPECT_NE(why.find("administrator command"), std::string::npos) << why;
    EXPECT_EQ(recorder.status(), ADVLOCK_ELOST);
    EXPECT_EQ(recorder.sqlstate(), "57P01");

    EXPECT_EQ(advlock_session_check(session.get()), ADVLOCK_ELOST);
    EXPECT_EQ(advlock_lock_check(held.get()), ADVLOCK_ELOST);
    EXPECT_NE(std::string(advlock_error_last()->message).find("administrator command"), std::string::npos);
    EXPECT_EQ(advlock_session_verify(session.get()), ADVLOCK_ELOST);
    EXPECT_EQ(advlock_lock_verify(held.get(), ADVLOCK_VERIFY_STRICT), ADVLOCK_ELOST);
    advlock_lock *again = nullptr;
    EXPECT_EQ(advlock_session_try_lock(&again, session.get(), of_key(key), ADVLOCK_EXCLUSIVE), ADVLOCK_ELOST);
    EXPECT_EQ(advlock_session_lock(&again, session.get(), of_key(key), ADVLOCK_EXCLUSIVE, 10), ADVLOCK_ELOST);
    advlock_holders *holders = nullptr;
    EXPECT_EQ(advlock_session_holders(&holders, session.get(), nullptr, nullptr), ADVLOCK_ELOST);
    EXPECT_EQ(advlock_lock_release(held.get()), ADVLOCK_ELOST);
    EXPECT_EQ(advlock_lock_release(held.get()), ADVLOCK_EMISUSE);
    EXPECT_EQ(recorder.count(), 1);

    // Nobody re-took the lock behind the job's back: it is free for a new session.
    Session next = open_session();
    EXPECT_NE(take(next, key), nullptr);
    EXPECT_EQ(recorder.count(), 1);
}

TEST(ServerEndsSession, CallbackRegisteredAfterTheLossFiresAtOnce) {
    Session session = open_session("advlock-late-callback");
    Psql psql;
    psql.query("SELECT pg_terminate_backend($1::int)", {std::to_string(backend_pid(session))});
    // Without a callback the loss still shows: wait for check() to say so.
    while (advlock_session_check(session.get()) == ADVLOCK_OK) {
    }
    EXPECT_EQ(advlock_session_check(session.get()), ADVLOCK_ELOST);
    LostRecorder recorder;
    ASSERT_EQ(advlock_session_set_lost_callback(session.get(), &LostRecorder::callback, &recorder), ADVLOCK_OK);
    EXPECT_EQ(recorder.count(), 1);
    ASSERT_EQ(advlock_session_set_lost_callback(session.get(), &LostRecorder::callback, &recorder), ADVLOCK_OK);
    EXPECT_EQ(recorder.count(), 1);
}

TEST(ServerEndsSession, IdleSessionTimeoutAskedForByTheClientIsTurnedOff) {
    LostRecorder recorder;
    // Would end the session after 300 ms idle (the default heartbeat, 2 s, is
    // slower); advlock's own connection turns it off. (That the watchdog
    // notices a session ended this way: LockConnectionMisuse.)
    Session session = open_watched(recorder, postgres_url() + "?options=-c%20idle_session_timeout%3D300");
    Lock held = take(session, test_key());
    ASSERT_NE(held, nullptr);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // five timeouts' worth of idling
    EXPECT_EQ(advlock_lock_check(held.get()), ADVLOCK_OK) << advlock_error_last()->message;
    EXPECT_EQ(recorder.count(), 0);
}

TEST(ServerEndsSession, CrashOfAnotherBackendIsNoticed) {
    ScriptedServer server("pg-start.sh", "pg-stop.sh");
    LostRecorder recorder;
    Session session = open_watched(recorder, server.url());
    Lock held = take(session, test_key());
    Psql victim(server.url());
    const int victim_pid = std::stoi(victim.value("SELECT pg_backend_pid()"));
    ASSERT_EQ(::kill(victim_pid, SIGKILL), 0);  // the postmaster resets every backend
    const std::string why = recorder.wait();
    EXPECT_TRUE(why.find("57P02") != std::string::npos || why.find("connection") != std::string::npos) << why;
    EXPECT_EQ(advlock_lock_check(held.get()), ADVLOCK_ELOST);
}

TEST(ServerEndsSession, FastRestartIsNoticed) {
    ScriptedServer server("pg-start.sh", "pg-stop.sh");
    LostRecorder recorder;
    Session session = open_watched(recorder, server.url());
    const advlock_key key = test_key();
    Lock held = take(session, key);
    restart(server, "fast");
    const std::string why = recorder.wait();
    EXPECT_NE(why.find("57P01"), std::string::npos) << why;
    Session next = open_session(nullptr, server.url());
    EXPECT_NE(take(next, key), nullptr);
}

TEST(ServerEndsSession, ImmediateRestartIsNoticed) {
    ScriptedServer server("pg-start.sh", "pg-stop.sh");
    LostRecorder recorder;
    Session session = open_watched(recorder, server.url());
    Lock held = take(session, test_key());
    restart(server, "immediate");
    const std::string why = recorder.wait();
    EXPECT_FALSE(why.empty());
    EXPECT_EQ(advlock_lock_release(held.get()), ADVLOCK_ELOST);
}

TEST(HeartbeatOptions, SettingsOutOfRangeAreRefusedAndLongOnesAccepted) {
    advlock_session_options options;
    advlock_session_options_init(&options, ADVLOCK_SESSION_OPTIONS_VERSION);
    advlock_session *session = nullptr;
    options.heartbeat_interval_ms = 3600001;
    options.heartbeat_deadline_ms = 5000;
    EXPECT_EQ(advlock_session_open(&session, postgres_url().c_str(), &options), ADVLOCK_EINVAL);
    EXPECT_NE(std::string(advlock_error_last()->message).find("must be 10 to 3600000 ms"), std::string::npos)
        << advlock_error_last()->message;
    options.heartbeat_interval_ms = 5;
    options.heartbeat_deadline_ms = 0;
    EXPECT_EQ(advlock_session_open(&session, postgres_url().c_str(), &options), ADVLOCK_EINVAL);
    options.heartbeat_interval_ms = 2000;
    options.stop_grace_ms = -5;
    EXPECT_EQ(advlock_session_open(&session, postgres_url().c_str(), &options), ADVLOCK_EINVAL);
    EXPECT_NE(std::string(advlock_error_last()->message).find("stop grace"), std::string::npos);
    // Once refused (their sum reached the server's fixed 25 s): the server's
    // limit now follows them.
    options.heartbeat_interval_ms = 20000;
    options.heartbeat_deadline_ms = 5000;
    options.stop_grace_ms = 15000;
    EXPECT_EQ(advlock_session_open(&session, postgres_url().c_str(), &options), ADVLOCK_OK)
        << advlock_error_last()->message;
    advlock_session_free(session);
}

TEST(HeartbeatOptions, AVersion1StructIsReadAndWrittenOnlyAsFarAsItGoes) {
    // What a program built against version 1 of the header passes: the struct
    // ends before stop_grace_ms; a guard after it must stay untouched.
    struct {
        unsigned char v1[offsetof(advlock_session_options, stop_grace_ms)];
        unsigned char guard[8];
    } caller;
    std::memset(&caller, 0xAB, sizeof caller);
    ASSERT_EQ(advlock_session_options_init(reinterpret_cast<advlock_session_options *>(&caller), 1), ADVLOCK_OK);
    for (unsigned char byte : caller.guard) EXPECT_EQ(byte, 0xAB);
    advlock_session *session = nullptr;
    EXPECT_EQ(advlock_session_open(&session, postgres_url().c_str(),
                                   reinterpret_cast<const advlock_session_options *>(&caller)),
              ADVLOCK_OK)
        << advlock_error_last()->message;
    advlock_session_free(session);
}

TEST(HeartbeatOptions, NullHandlesAreEinval) {
    EXPECT_EQ(advlock_session_check(nullptr), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_session_verify(nullptr), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_lock_check(nullptr), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_lock_verify(nullptr, 0u), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_session_set_lost_callback(nullptr, nullptr, nullptr), ADVLOCK_EINVAL);
}

TEST(HeartbeatOptions, VerifyAndCheckSayOkWhileAllIsWell) {
    Session session = open_session();
    Lock held = take(session, test_key());
    EXPECT_EQ(advlock_session_check(session.get()), ADVLOCK_OK);
    EXPECT_EQ(advlock_session_verify(session.get()), ADVLOCK_OK) << advlock_error_last()->message;
    EXPECT_EQ(advlock_lock_check(held.get()), ADVLOCK_OK);
    EXPECT_EQ(advlock_lock_verify(held.get(), 0u), ADVLOCK_OK);
    EXPECT_EQ(advlock_lock_verify(held.get(), ADVLOCK_VERIFY_STRICT), ADVLOCK_OK) << advlock_error_last()->message;
    ASSERT_EQ(advlock_lock_release(held.get()), ADVLOCK_OK);
    EXPECT_EQ(advlock_lock_check(held.get()), ADVLOCK_EMISUSE);
}
