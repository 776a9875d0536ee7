// Access to the throwaway PostgreSQL the test fixture started (scripts/pg-start.sh):
// its URL, and a plain libpq connection for checking what the server sees.
#pragma once

#include <cstdlib>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <libpq-fe.h>

namespace advlock::test {

// The state directory: $ADVLOCK_TEST_PG_STATE (scripts/with-postgres.sh sets
// it), else the CTest fixture's.
inline std::string postgres_state_dir() {
    if (const char *dir = std::getenv("ADVLOCK_TEST_PG_STATE")) return dir;
    return ADVLOCK_TEST_PG_STATE_DEFAULT;
}

inline std::string postgres_url() {
    const std::string path = postgres_state_dir() + "/url";
    std::ifstream in(path);
    std::string url;
    if (!(in >> url)) {
        throw std::runtime_error("no test PostgreSQL: " + path +
                                 " is missing. Run the tests with ctest (its postgres fixture starts one) "
                                 "or under scripts/with-postgres.sh");
    }
    return url;
}

// url with its user and password replaced (postgresql://USER:PASSWORD@...).
inline std::string with_credentials(std::string url, const std::string &user, const std::string &password) {
    const std::size_t start = url.find("://") + 3, at = url.find('@');
    return url.replace(start, at - start, user + ":" + password);
}

// A direct libpq connection, for asserting on server state.
class Psql {
public:
    explicit Psql(const std::string &url = postgres_url()) : conn_(PQconnectdb(url.c_str()), &PQfinish) {
        if (PQstatus(conn_.get()) != CONNECTION_OK) {
            throw std::runtime_error(std::string("test connection failed: ") + PQerrorMessage(conn_.get()));
        }
    }

    // Runs sql with text parameters; returns all rows as text (NULL as "<null>").
    std::vector<std::vector<std::string>> query(const std::string &sql,
                                                const std::vector<std::string> &params = {}) {
        std::vector<const char *> values;
        for (const std::string &p : params) values.push_back(p.c_str());
        std::unique_ptr<PGresult, decltype(&PQclear)> result(
            PQexecParams(conn_.get(), sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr,
                         nullptr, 0),
            &PQclear);
        const ExecStatusType status = PQresultStatus(result.get());
        if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
            const char *sqlstate = PQresultErrorField(result.get(), PG_DIAG_SQLSTATE);
            last_sqlstate_ = sqlstate ? sqlstate : "";
            throw std::runtime_error("query failed: " + sql + ": " + PQresultErrorMessage(result.get()));
        }
        std::vector<std::vector<std::string>> rows;
        for (int r = 0; r < PQntuples(result.get()); ++r) {
            std::vector<std::string> row;
            for (int c = 0; c < PQnfields(result.get()); ++c) {
                row.push_back(PQgetisnull(result.get(), r, c) ? "<null>" : PQgetvalue(result.get(), r, c));
            }
            rows.push_back(std::move(row));
        }
        return rows;
    }

    // Runs several statements in one go (simple protocol, no parameters).
    void script(const std::string &sql) {
        std::unique_ptr<PGresult, decltype(&PQclear)> result(PQexec(conn_.get(), sql.c_str()), &PQclear);
        const ExecStatusType status = PQresultStatus(result.get());
        if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
            throw std::runtime_error("script failed: " + std::string(PQresultErrorMessage(result.get())));
        }
    }

    std::string value(const std::string &sql, const std::vector<std::string> &params = {}) {
        const auto rows = query(sql, params);
        if (rows.size() != 1 || rows[0].size() != 1) throw std::runtime_error("expected one value from " + sql);
        return rows[0][0];
    }

    PGconn *get() const { return conn_.get(); }
    // The SQLSTATE of the last query() that failed.
    const std::string &last_sqlstate() const { return last_sqlstate_; }

private:
    std::unique_ptr<PGconn, decltype(&PQfinish)> conn_;
    std::string last_sqlstate_;
};

}  // namespace advlock::test
