// One connection attempt: a wrong password is one failed login on the server,
// a silent server costs the connect timeout once, and what the server says
// while the connection starts (a WARNING) never reaches the program's stderr.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "advlock.h"
#include "support/c_handles.hpp"
#include "support/scripted_server.hpp"

using namespace advlock::test;

namespace {

std::string read_file(const std::string &path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::size_t occurrences(const std::string &text, const std::string &what) {
    std::size_t count = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
    return count;
}

// What fn wrote on this process's stderr (file descriptor 2).
template <typename Fn>
std::string captured_stderr(Fn fn) {
    std::fflush(stderr);
    char path[] = "/tmp/advlock_stderr_XXXXXX";
    const int capture = ::mkstemp(path);
    const int saved = ::dup(STDERR_FILENO);
    ::dup2(capture, STDERR_FILENO);
    fn();
    std::fflush(stderr);
    ::dup2(saved, STDERR_FILENO);
    ::close(saved);
    ::close(capture);
    const std::string printed = read_file(path);
    ::unlink(path);
    return printed;
}

}  // namespace

class ConnectOnce : public ::testing::Test {
protected:
    void SetUp() override { admin_.script("CREATE ROLE batch LOGIN PASSWORD 'batch-pw'"); }

    ScriptedServer server_{"pg-start.sh", "pg-stop.sh"};
    Psql admin_{server_.url()};
};

TEST_F(ConnectOnce, AWrongPasswordIsOneFailedLoginOnTheServer) {
    std::string base = read_file(server_.state_dir() + "/base_dir");
    base.erase(base.find_last_not_of("\n") + 1);
    const std::string log = base + "/server.log";
    const std::string failure = "password authentication failed for user \"batch\"";
    const std::size_t before = occurrences(read_file(log), failure);
    advlock_session *session = nullptr;
    const std::string wrong = with_credentials(server_.url(), "batch", "wrong-pw");
    EXPECT_EQ(advlock_session_open(&session, wrong.c_str(), nullptr), ADVLOCK_ECONNECT);
    EXPECT_EQ(std::string(advlock_error_last()->message).find("wrong-pw"), std::string::npos);
    // The server writes its log line before it answers the client.
    EXPECT_EQ(occurrences(read_file(log), failure), before + 1) << read_file(log);
}

TEST_F(ConnectOnce, AWarningWhileConnectingStaysOffStderr) {
    // Recorded collation version without an actual one: every connection to
    // that database gets a WARNING during start-up, before any query.
    admin_.script("CREATE DATABASE warns");
    admin_.script("UPDATE pg_database SET datcollversion = '0.1' WHERE datname = 'warns'");
    std::string url = server_.url();
    url = url.substr(0, url.rfind('/')) + "/warns";
    const std::string from_advlock = captured_stderr([&] {
        Session session = open_session(nullptr, url);
        EXPECT_NE(session, nullptr);
    });
    EXPECT_EQ(from_advlock.find("collation version"), std::string::npos) << from_advlock;
    // Proof that the server does send it: libpq's own receiver prints it.
    const std::string from_libpq = captured_stderr([&] { Psql probe(url); });
    EXPECT_NE(from_libpq.find("collation version"), std::string::npos) << from_libpq;
}

TEST(ConnectOnceWithoutServer, ASilentServerIsOneAttemptWithinTheTimeout) {
    // A listening socket that never answers: the kernel completes the TCP
    // handshake, libpq sends its start-up packet and waits for the reply.
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(listener, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
    ASSERT_EQ(::listen(listener, 8), 0);
    socklen_t length = sizeof address;
    ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr *>(&address), &length), 0);
    const std::string url = "postgresql://nobody:pw@127.0.0.1:" + std::to_string(ntohs(address.sin_port)) +
                            "/db?connect_timeout=2";

    advlock_session *session = nullptr;
    EXPECT_EQ(advlock_session_open(&session, url.c_str(), nullptr), ADVLOCK_ECONNECT);
    const std::string message = advlock_error_last()->message;
    EXPECT_NE(message.find("connect timeout"), std::string::npos) << message;

    // Every connection advlock made is waiting in the backlog: exactly one.
    ASSERT_EQ(::fcntl(listener, F_SETFL, O_NONBLOCK), 0);
    int accepted = 0;
    for (int client; (client = ::accept(listener, nullptr, nullptr)) >= 0; ++accepted) ::close(client);
    ::close(listener);
    EXPECT_EQ(accepted, 1);
}
