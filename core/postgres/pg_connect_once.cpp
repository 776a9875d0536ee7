#include "postgres/pg_connect_once.hpp"

#include <poll.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <memory>

namespace advlock::core {

namespace {

using Clock = std::chrono::steady_clock;
using Parameters = std::vector<std::pair<std::string, std::string>>;

std::vector<std::string> split_commas(const std::string &text) {
    std::vector<std::string> parts;
    std::string::size_type start = 0;
    while (true) {
        const auto comma = text.find(',', start);
        parts.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) return parts;
        start = comma + 1;
    }
}

std::string join_from(const std::vector<std::string> &parts, std::size_t first) {
    std::string joined;
    for (std::size_t i = first; i < parts.size(); ++i) joined += (i > first ? "," : "") + parts[i];
    return joined;
}

struct FreeOptions {
    void operator()(PQconninfoOption *options) const { PQconninfoFree(options); }
};
using Options = std::unique_ptr<PQconninfoOption, FreeOptions>;

std::string option(const PQconninfoOption *options, const char *keyword) {
    for (const PQconninfoOption *o = options; o && o->keyword; ++o) {
        if (std::string(o->keyword) == keyword) return o->val ? o->val : "";
    }
    return "";
}

// What the connection in progress will try, as libpq resolved it (URL, PG*
// environment, defaults): the host, hostaddr and port lists and the timeout.
struct Targets {
    std::vector<std::string> hosts, hostaddrs, ports;
    int timeout_s = 0;  // 0: wait as long as it takes

    explicit Targets(PGconn *conn) {
        const Options options(PQconninfo(conn));
        const std::string host = option(options.get(), "host"), hostaddr = option(options.get(), "hostaddr");
        hosts = split_commas(host);
        if (!hostaddr.empty()) hostaddrs = split_commas(hostaddr);
        ports = split_commas(option(options.get(), "port"));
        if (hostaddrs.size() > hosts.size()) hosts.resize(hostaddrs.size());
        timeout_s = std::atoi(option(options.get(), "connect_timeout").c_str());
        if (timeout_s > 0 && timeout_s < 2) timeout_s = 2;  // as libpq rounds it
    }

    // The parameters that make libpq start over at host `first` of these lists.
    void restrict_to_hosts_from(std::size_t first, Parameters &parameters) const {
        parameters.emplace_back("host", join_from(hosts, first));
        if (!hostaddrs.empty()) parameters.emplace_back("hostaddr", join_from(hostaddrs, first));
        if (ports.size() > 1) parameters.emplace_back("port", join_from(ports, first));
    }
};

PGconn *start(const Parameters &parameters, PQnoticeReceiver receiver) {
    std::vector<const char *> keywords, values;
    for (const auto &[keyword, value] : parameters) {
        keywords.push_back(keyword.c_str());
        values.push_back(value.c_str());
    }
    keywords.push_back(nullptr);
    values.push_back(nullptr);
    PGconn *conn = PQconnectStartParams(keywords.data(), values.data(), /*expand_dbname=*/1);
    if (conn) PQsetNoticeReceiver(conn, receiver, nullptr);
    return conn;
}

// Which listed host libpq is on, told apart by what PQhost and PQport say.
std::string current_host(PGconn *conn) {
    const char *host = PQhost(conn), *port = PQport(conn);
    return std::string(host ? host : "") + ":" + (port ? port : "");
}

enum class Outcome { Connected, Failed, TimedOut };

// Drives the attempt until it connects, fails (libpq tried every host) or the
// host it is on stays silent for the timeout. `host_index` follows libpq as it
// moves on to later hosts.
Outcome drive(PGconn *conn, int timeout_s, std::size_t &host_index) {
    PostgresPollingStatusType polling = PGRES_POLLING_WRITING;
    std::string host = current_host(conn);
    auto deadline = Clock::now() + std::chrono::seconds(timeout_s);
    while (true) {
        if (polling == PGRES_POLLING_OK) return Outcome::Connected;
        if (polling == PGRES_POLLING_FAILED) return Outcome::Failed;
        pollfd watched{PQsocket(conn), static_cast<short>(polling == PGRES_POLLING_READING ? POLLIN : POLLOUT), 0};
        int wait_ms = -1;
        if (timeout_s > 0) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0) return Outcome::TimedOut;
            wait_ms = static_cast<int>(left);
        }
        if (watched.fd >= 0) {
            const int ready = ::poll(&watched, 1, wait_ms);
            if (ready < 0 && errno == EINTR) continue;
            if (ready == 0) return Outcome::TimedOut;
        }
        polling = PQconnectPoll(conn);
        if (const std::string now_on = current_host(conn); now_on != host) {
            host = now_on;  // libpq gave up on a host and went on to the next
            ++host_index;
            deadline = Clock::now() + std::chrono::seconds(timeout_s);
        }
    }
}

}  // namespace

ConnectAttempt connect_once(const Parameters &parameters, PQnoticeReceiver receiver) {
    ConnectAttempt result{start(parameters, receiver), {}};
    if (!result.conn || PQstatus(result.conn) == CONNECTION_BAD) return result;
    const Targets targets(result.conn);
    std::size_t host_index = 0;
    while (drive(result.conn, targets.timeout_s, host_index) == Outcome::TimedOut) {
        const std::string silent = current_host(result.conn);
        PQfinish(result.conn);
        result.conn = nullptr;
        if (host_index + 1 >= targets.hosts.size()) {
            result.timed_out = "no answer from " + silent + " within the connect timeout (" +
                               std::to_string(targets.timeout_s) + " s, connect_timeout)";
            return result;
        }
        Parameters rest = parameters;
        targets.restrict_to_hosts_from(++host_index, rest);
        result.conn = start(rest, receiver);
        if (!result.conn || PQstatus(result.conn) == CONNECTION_BAD) return result;
    }
    return result;
}

std::vector<std::string> listed_hosts(const std::string &url) {
    char *error = nullptr;
    const Options options(PQconninfoParse(url.c_str(), &error));
    PQfreemem(error);
    if (!options) return {};
    std::string host = option(options.get(), "host");
    if (host.empty()) host = option(options.get(), "hostaddr");
    if (host.empty() && std::getenv("PGHOST")) host = std::getenv("PGHOST");
    return split_commas(host);
}

}  // namespace advlock::core
