// Hostile config and registry text through the C ABI, on a thread with a
// small stack as a JVM or a thread pool gives (20 KB of dotted keys crashed a
// Java thread's 1 MB stack): refused with file:line, never a crash. And the
// longest wait, the escaper, as every client sees them.
#include <gtest/gtest.h>

#include <functional>
#include <pthread.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "advlock.h"
#include "support/targets.hpp"
#include "support/temp_directory.hpp"

namespace {

constexpr std::size_t kSmallStack = 128 * 1024;

// Runs body on a new thread whose stack is kSmallStack bytes.
void on_small_stack(std::function<void()> body) {
    pthread_attr_t attributes;
    ASSERT_EQ(pthread_attr_init(&attributes), 0);
    ASSERT_EQ(pthread_attr_setstacksize(&attributes, kSmallStack), 0);
    pthread_t thread;
    const auto run = [](void *argument) -> void * {
        (*static_cast<std::function<void()> *>(argument))();
        return nullptr;
    };
    ASSERT_EQ(pthread_create(&thread, &attributes, run, &body), 0);
    ASSERT_EQ(pthread_join(thread, nullptr), 0);
    pthread_attr_destroy(&attributes);
}

std::string dotted_key(int segments) {
    std::string key = "a";
    for (int i = 1; i < segments; ++i) key += ".a";
    return key;
}

struct Outcome {
    advlock_status status;
    std::string message;
};

// parse (advlock_registry_parse) of text on a small stack. (The command's
// config file has its own tests in tests/cli: it is no longer the library's.)
template <typename Handle>
Outcome parse_on_small_stack(advlock_status (*parse)(Handle **, const char *, size_t, const char *),
                             void (*release)(Handle *), const std::string &text, const char *origin) {
    Outcome outcome{};
    on_small_stack([&] {
        Handle *handle = nullptr;
        outcome.status = parse(&handle, text.data(), text.size(), origin);
        outcome.message = advlock_error_last()->message;
        release(handle);
    });
    return outcome;
}

Outcome parse_registry(const std::string &text) {
    return parse_on_small_stack(advlock_registry_parse, advlock_registry_free, text, "jobs.toml");
}


}  // namespace

TEST(HostileInputC, DeepNestingIsRefusedOnASmallStack) {
    for (const std::string &text : {
             "[locks.a]\n" + dotted_key(80000) + " = 1\n",
             "[" + dotted_key(80000) + "]\n",
             "[locks.a]\nkey = " + std::string(80000, '[') + "\n",
         }) {
        const Outcome outcome = parse_registry(text);
        EXPECT_EQ(outcome.status, ADVLOCK_EREGISTRY);
        EXPECT_NE(outcome.message.find("nested more than 16 deep"), std::string::npos) << outcome.message;
        EXPECT_EQ(outcome.message.rfind("jobs.toml:", 0), 0u) << outcome.message;
    }
    std::string inline_tables = "[locks.a]\nx = ";
    for (int i = 0; i < 20000; ++i) inline_tables += "{a = ";
    const Outcome nested = parse_registry(inline_tables);
    EXPECT_EQ(nested.status, ADVLOCK_EREGISTRY);
    EXPECT_EQ(nested.message.rfind("jobs.toml:2: tables, keys and arrays nested more than 16", 0), 0u)
        << nested.message;
}

TEST(HostileInputC, TheDeepestAllowedDocumentParsesOnASmallStack) {
    // At the limit, the parser and the tree's destructor recurse 16 levels.
    Outcome outcome = parse_registry("[locks.a]\nkey = [1, 2]\n");
    EXPECT_EQ(outcome.status, ADVLOCK_OK) << outcome.message;
}

TEST(HostileInputC, AFifoIsNotReadThroughTheAbi) {
    advlock::test::TempDirectory dir("advlock-hostile-c");
    const std::string fifo = dir.path() + "/registry.toml";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    advlock_registry *registry = nullptr;
    EXPECT_EQ(advlock_registry_open(&registry, fifo.c_str()), ADVLOCK_EIO);
    EXPECT_NE(std::string(advlock_error_last()->message).find("is a FIFO"), std::string::npos);
    EXPECT_EQ(advlock_registry_open(&registry, "/dev/zero"), ADVLOCK_EIO);
    EXPECT_NE(std::string(advlock_error_last()->message).find("is a character device"), std::string::npos);
}

TEST(HostileInputC, WaitsLongerThanTheMaximumAreRefused) {
    advlock::test::TempDirectory dir("advlock-hostile-c");
    advlock_session *session = nullptr;
    ASSERT_EQ(advlock_session_open(&session, ("local:" + dir.path()).c_str(), nullptr), ADVLOCK_OK)
        << advlock_error_last()->message;
    const advlock_key key = advlock_key_bigint(17);
    advlock_lock *lock = nullptr;
    EXPECT_EQ(advlock_session_lock(&lock, session, advlock::test::of_key(key), ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_MAX_MS + 1), ADVLOCK_EINVAL);
    EXPECT_NE(std::string(advlock_error_last()->message).find("give 0 to 2147483647 milliseconds (ADVLOCK_WAIT_MAX_MS"),
              std::string::npos)
        << advlock_error_last()->message;
    EXPECT_EQ(advlock_session_lock(&lock, session, advlock::test::of_key(key), ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_MAX_MS), ADVLOCK_OK)
        << advlock_error_last()->message;
    advlock_lock_free(lock);
    advlock_session_free(session);
}

TEST(HostileInputC, LocalPathsAreShownEscaped) {
    advlock::test::TempDirectory dir("advlock-hostile-c");
    advlock_session *session = nullptr;
    // Given: refused at once.
    EXPECT_EQ(advlock_session_open(&session, ("local:" + dir.path() + "/a\x1b[2Jb").c_str(), nullptr), ADVLOCK_EINVAL);
    EXPECT_EQ(std::string(advlock_error_last()->message).find('\x1b'), std::string::npos);
    EXPECT_NE(std::string(advlock_error_last()->message).find("without control characters"), std::string::npos);
    // Reached through a link: the real path in the message is escaped.
    const std::string hostile = dir.path() + "/ev\x1b]0;il";
    ASSERT_EQ(::mkdir(hostile.c_str(), 0755), 0);
    ASSERT_EQ(::mkdir((hostile + "/locks").c_str(), 0777), 0);
    ASSERT_EQ(::chmod((hostile + "/locks").c_str(), 0777), 0);
    ASSERT_EQ(::symlink(hostile.c_str(), (dir.path() + "/link").c_str()), 0);
    EXPECT_EQ(advlock_session_open(&session, ("local:" + dir.path() + "/link/locks").c_str(), nullptr),
              ADVLOCK_EUNSAFEDIR);
    const std::string message = advlock_error_last()->message;
    EXPECT_EQ(message.find('\x1b'), std::string::npos) << message;
    EXPECT_NE(message.find("ev\\x1B]0;il/locks"), std::string::npos) << message;
}

TEST(HostileInputC, PrintableEscapesAndBounds) {
    char *out = nullptr;
    ASSERT_EQ(advlock_text_printable(&out, "job\x1b[2J\xc2\x9bx", ADVLOCK_NUL_TERMINATED, 80), ADVLOCK_OK);
    EXPECT_STREQ(out, "job\\x1B[2J\\u{009B}x");
    advlock_free(out);
    ASSERT_EQ(advlock_text_printable(&out, "abcdef", 6, 3), ADVLOCK_OK);
    EXPECT_STREQ(out, "abc...");
    advlock_free(out);
    EXPECT_EQ(advlock_text_printable(&out, nullptr, 0, 3), ADVLOCK_EINVAL);
    EXPECT_EQ(out, nullptr);
}
