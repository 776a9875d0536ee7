// One try+release cycle on MySQL/MariaDB: through advlock's C ABI, and as the
// baseline, raw MariaDB Connector/C sending the same two statements
// (GET_LOCK(name, 0), RELEASE_LOCK(name)) on the text protocol and checking
// both answers. Both hold a dedicated connection to the same server
// ($ADVLOCK_BENCH_MYSQL_URL; skipped without it).
#include <benchmark/benchmark.h>
#include <mysql.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "advlock.h"
#include "capi_cycle.hpp"

namespace {

const char *mysql_url() { return std::getenv("ADVLOCK_BENCH_MYSQL_URL"); }

// "mysql://user:password@host:port/db", as bench/run.sh writes it.
struct UrlParts {
    std::string user, password, host, db;
    unsigned port = 3306;
};

UrlParts parse(const std::string &url) {
    UrlParts p;
    const std::string rest = url.substr(url.find("://") + 3);
    const std::string userinfo = rest.substr(0, rest.rfind('@'));
    const std::string hostpart = rest.substr(rest.rfind('@') + 1);
    p.user = userinfo.substr(0, userinfo.find(':'));
    p.password = userinfo.substr(userinfo.find(':') + 1);
    const std::string hostport = hostpart.substr(0, hostpart.find('/'));
    p.db = hostpart.substr(hostpart.find('/') + 1);
    p.host = hostport.substr(0, hostport.find(':'));
    p.port = static_cast<unsigned>(std::stoul(hostport.substr(hostport.find(':') + 1)));
    return p;
}

bool answer_is_one(MYSQL *mysql, const std::string &sql) {
    if (mysql_real_query(mysql, sql.data(), sql.size()) != 0) return false;
    std::unique_ptr<MYSQL_RES, decltype(&mysql_free_result)> result(mysql_store_result(mysql), &mysql_free_result);
    MYSQL_ROW row = result ? mysql_fetch_row(result.get()) : nullptr;
    return row && row[0] && std::strcmp(row[0], "1") == 0;
}

void BM_RawLibmariadbGetRelease(benchmark::State &state) {
    if (!mysql_url()) {
        state.SkipWithError("set ADVLOCK_BENCH_MYSQL_URL (bench/run.sh does)");
        return;
    }
    const UrlParts url = parse(mysql_url());
    std::unique_ptr<MYSQL, decltype(&mysql_close)> mysql(mysql_init(nullptr), &mysql_close);
    if (!mysql_real_connect(mysql.get(), url.host.c_str(), url.user.c_str(), url.password.c_str(), url.db.c_str(),
                            url.port, nullptr, 0)) {
        state.SkipWithError(mysql_error(mysql.get()));
        return;
    }
    const std::string get = "SELECT GET_LOCK('advlock:424244', 0)", release = "SELECT RELEASE_LOCK('advlock:424244')";
    for (auto _ : state) {
        if (!answer_is_one(mysql.get(), get) || !answer_is_one(mysql.get(), release)) {
            state.SkipWithError("raw libmariadb cycle failed");
            break;
        }
    }
}

void BM_AdvlockCapiMysqlTryRelease(benchmark::State &state) {
    if (!mysql_url()) {
        state.SkipWithError("set ADVLOCK_BENCH_MYSQL_URL (bench/run.sh does)");
        return;
    }
    advlock::bench::capi_try_release_cycles(state, mysql_url(), 424245);
}

}  // namespace

BENCHMARK(BM_RawLibmariadbGetRelease)->Unit(benchmark::kMicrosecond)->MinTime(1.0);
BENCHMARK(BM_AdvlockCapiMysqlTryRelease)->Unit(benchmark::kMicrosecond)->MinTime(1.0);
