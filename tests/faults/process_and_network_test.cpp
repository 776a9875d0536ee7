// A holder process killed with SIGKILL, a cable pulled between client and
// server, and a server restarted behind a pooler.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>

#include "advlock.h"
#include "support/c_handles.hpp"
#include "support/child_process.hpp"
#include "support/lost_recorder.hpp"
#include "support/scripted_server.hpp"

using namespace advlock::test;

namespace {

const std::string kHolder = ADVLOCK_FAULT_HOLDER;

long long monotonic_ns() {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1000000000LL + now.tv_nsec;
}

std::string key_text(const advlock_key &key) {
    char text[ADVLOCK_KEY_TEXT_SIZE];
    advlock_key_format(text, sizeof text, &key);
    return text;
}

bool run(const std::string &command) { return std::system((command + " >/dev/null 2>&1").c_str()) == 0; }

// Two network namespaces' worth of plumbing: the client in its own namespace,
// joined to this one by a veth pair; "pulling the cable" drops every packet in
// both directions without telling either end, as a dead switch would.
class Cable {
public:
    Cable() {
        const std::string id = std::to_string(getpid() % 100000);
        ns_ = "advlock-c" + id;
        host_if_ = "alh" + id;
        ns_if_ = "aln" + id;
        table_ = "advlock_cable_" + id;
        const int subnet = getpid() % 250;
        host_ip_ = "10.213." + std::to_string(subnet) + ".1";
        client_ip_ = "10.213." + std::to_string(subnet) + ".2";
        if (geteuid() != 0) {
            reason_ = "needs root to create a network namespace";
            return;
        }
        if (!run("command -v ip") || !run("command -v nft")) {
            reason_ = "needs ip (iproute2) and nft (nftables)";
            return;
        }
        if (!run("ip netns add " + ns_)) {
            reason_ = "this machine cannot create network namespaces (ip netns add failed)";
            return;
        }
        created_ = true;
        const bool wired =
            run("ip link add " + host_if_ + " type veth peer name " + ns_if_) &&
            run("ip link set " + ns_if_ + " netns " + ns_) &&
            run("ip addr add " + host_ip_ + "/30 dev " + host_if_) && run("ip link set " + host_if_ + " up") &&
            run("ip netns exec " + ns_ + " ip addr add " + client_ip_ + "/30 dev " + ns_if_) &&
            run("ip netns exec " + ns_ + " ip link set " + ns_if_ + " up") &&
            run("ip netns exec " + ns_ + " ip link set lo up");
        if (!wired) reason_ = "could not wire a veth pair into the namespace";
    }
    ~Cable() {
        if (!created_) return;
        run("nft delete table inet " + table_);
        run("ip netns del " + ns_);  // takes the veth pair with it
        run("ip link del " + host_if_);
    }

    // Empty when the machine can do it; else why not.
    const std::string &unavailable() const { return reason_; }

    bool pull() {
        return run("nft add table inet " + table_) &&
               run("nft add chain inet " + table_ + " in '{ type filter hook input priority 0; }'") &&
               run("nft add rule inet " + table_ + " in iifname " + host_if_ + " drop") &&
               run("ip netns exec " + ns_ + " nft add table inet cable") &&
               run("ip netns exec " + ns_ + " nft add chain inet cable in '{ type filter hook input priority 0; }'") &&
               run("ip netns exec " + ns_ + " nft add rule inet cable in drop");
    }

    const std::string &ns() const { return ns_; }
    const std::string &host_ip() const { return host_ip_; }
    const std::string &client_ip() const { return client_ip_; }

private:
    std::string ns_, host_if_, ns_if_, table_, host_ip_, client_ip_, reason_;
    bool created_ = false;
};

}  // namespace

TEST(ProcessAndNetwork, KilledHolderFreesTheLockForTheNextJob) {
    const advlock_key key = test_key();
    ChildProcess holder({kHolder, postgres_url(), key_text(key)});
    ASSERT_EQ(holder.read_line().rfind("held ", 0), 0u);
    Session next = open_session();
    EXPECT_EQ(take(next, key), nullptr);

    const auto killed = std::chrono::steady_clock::now();
    holder.kill(SIGKILL);
    EXPECT_EQ(holder.wait(), 128 + SIGKILL);
    // The server frees the lock as soon as it sees the dead process's socket
    // close; no deadline here, the time is reported.
    Lock lock;
    while (!(lock = take(next, key))) {
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - killed).count();
    std::cout << "[ kill -9  ] the next job got the lock " << ms << " ms after the holder was killed\n";
}

TEST(ProcessAndNetwork, CablePullIsReportedBeforeTheServerFreesTheLock) {
    Cable cable;
    if (!cable.unavailable().empty()) GTEST_SKIP() << "cable pull skipped: " << cable.unavailable();

    ScriptedServer server("pg-start.sh", "pg-stop.sh", "-c listen_addresses=127.0.0.1," + cable.host_ip());
    {
        std::ofstream hba(server.read("data_dir") + "/pg_hba.conf", std::ios::app);
        hba << "host all all " << cable.client_ip() << "/32 scram-sha-256\n";
    }
    Psql observer(server.url());
    observer.query("SELECT pg_reload_conf()");

    const advlock_key key = test_key();
    const std::string url = "postgresql://postgres:" + server.read("password") + "@" + cable.host_ip() + ":" +
                            server.read("port") + "/postgres";
    ChildProcess holder({"ip", "netns", "exec", cable.ns(), kHolder, url, key_text(key)});
    const std::string held = holder.read_line();
    ASSERT_EQ(held.rfind("held ", 0), 0u) << "the holder in the namespace could not take the lock: '" << held << "'";
    const std::string pid = held.substr(5);
    const std::string lock_row = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = " +
                                 pid + " AND NOT (objsubid = 2 AND classid = 1633971307)";
    ASSERT_EQ(observer.value(lock_row), "1");

    const long long pulled = monotonic_ns();
    ASSERT_TRUE(cable.pull());
    const std::string lost = holder.read_line();  // "lost <monotonic ns> <why>"
    ASSERT_EQ(lost.rfind("lost ", 0), 0u) << lost;
    // The client has given the lock up; the server must still hold it for it.
    EXPECT_EQ(observer.value(lock_row), "1") << "the server freed the lock before the client knew it had lost it";
    const long long lost_at = std::stoll(lost.substr(5, lost.find(' ', 5) - 5));
    EXPECT_NE(lost.find("no answer to the heartbeat"), std::string::npos) << lost;

    while (observer.value(lock_row) != "0") std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const long long freed = monotonic_ns();
    EXPECT_LT(lost_at, freed);
    std::cout << "[ cable    ] client reported the loss " << static_cast<double>(lost_at - pulled) / 1e6
              << " ms after the pull; the server freed the lock " << static_cast<double>(freed - pulled) / 1e6 << " ms after it\n";
}

TEST(ProcessAndNetwork, ServerRestartBehindAPoolerIsNoticed) {
    ScriptedServer server("pg-start.sh", "pg-stop.sh");
    ScriptedServer bouncer("pgbouncer-start.sh", "pgbouncer-stop.sh", server.state_dir());
    LostRecorder recorder;
    advlock_session_options options;
    advlock_session_options_init(&options, ADVLOCK_SESSION_OPTIONS_VERSION);
    options.flags |= ADVLOCK_SESSION_ALLOW_POOLER;
    options.heartbeat_interval_ms = 50;
    options.on_lost = &LostRecorder::callback;
    options.on_lost_payload = &recorder;
    advlock_session *raw = nullptr;
    ASSERT_EQ(advlock_session_open(&raw, bouncer.url().c_str(), &options), ADVLOCK_OK) << advlock_error_last()->message;
    Session session(raw);
    const std::string restart =
        std::string(ADVLOCK_SOURCE_DIR) + "/scripts/pg-restart.sh " + server.state_dir() + " fast";
    ASSERT_EQ(std::system(restart.c_str()), 0);
    // PgBouncer keeps the client connection. Either it reconnects to the new
    // server and the heartbeat sees another backend of another postmaster, or
    // it is still waiting to retry the server and the heartbeat goes unanswered.
    const std::string why = recorder.wait();
    EXPECT_EQ(recorder.status(), ADVLOCK_ELOST);
    EXPECT_TRUE(why.find("restarted") != std::string::npos || why.find("session changed") != std::string::npos ||
                why.find("no answer to the heartbeat") != std::string::npos)
        << why;
    std::cout << "[ pooler   ] " << why << "\n";
}
