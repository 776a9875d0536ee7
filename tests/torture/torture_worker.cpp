// One worker of the exclusion torture (tests/torture/torture.py): takes one
// lock again and again and records when it believes it entered and left the
// critical section, on the machine's monotonic clock, one line per event in
// its own log file (the checker merges the files).
//
//   torture_worker session        URL LOCK_NAME LOG_FILE HOLD_MS
//   torture_worker xact           URL LOCK_NAME LOG_FILE HOLD_MS WORKER_ID
//   torture_worker session-fenced URL LOCK_NAME LOG_FILE HOLD_MS WORKER_ID
//   torture_worker sql-fence      (prints advlock_sql_fence's SQL, for psql)
//
// session: an advlock session lock. The worker leaves the critical section
//   at once when advlock tells it the lock is lost (the lost callback), so
//   the time it still believed to hold a lost lock is the detection latency.
//   Log lines: "E seq ns server_id" (entered; the server session it holds
//   the lock on, so the checker can tell which holder a fault hit),
//   "X seq ns ok|lost" (left), "L ns why" (the lost callback ran).
// xact: advlock_xact_lock in the worker's own transaction; the work (a row
//   with the server's clock at entry and exit) commits in that transaction,
//   so only work done while holding the lock can ever be committed. The
//   checker reads the committed rows.
// session-fenced: a session lock taken with ADVLOCK_LOCK_FENCED; the work
//   commits on a second connection of the worker's own (the data connection),
//   in a transaction that runs advlock_fence_check with the lock's token. The
//   worker deliberately ignores the lost callback while it works: the fence
//   alone must keep a stale holder's work from committing. Log lines:
//   "E seq ns server_id token" (granted), then one of "C seq ns token"
//   (committed), "F seq ns token" (the check said ADVLOCK_EFENCED: rolled
//   back), "A seq ns token why" (rolled back or lost for another reason); "N ns
//   why" when an acquisition failed with an error. The checker reads the
//   committed rows (table torture_fenced) and the server's commit timestamps.
// Runs until SIGTERM; reconnects after every loss or failure.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <string>
#include <thread>
#include <unistd.h>

#include <libpq-fe.h>

#include "advlock.h"

namespace {

std::atomic<bool> stopping{false};

long long now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// One line per write(2) with O_APPEND: a line is never torn by a kill.
class Log {
public:
    explicit Log(const char *path) : fd_(::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)) {
        if (fd_ < 0) {
            std::perror(path);
            std::exit(2);
        }
    }
    void line(const std::string &text) {
        const std::string with_newline = text + "\n";
        [[maybe_unused]] const ssize_t written = ::write(fd_, with_newline.data(), with_newline.size());
    }

private:
    int fd_;
};

// One line of a log never holds a newline.
std::string one_line(std::string text) {
    for (char &c : text) c = c == '\n' ? ' ' : c;
    return text;
}

struct LossSignal {
    std::mutex mutex;
    std::condition_variable cv;
    bool lost = false;
    Log *log = nullptr;

    static void callback(const advlock_error *why, void *payload) {
        auto *self = static_cast<LossSignal *>(payload);
        const long long at = now_ns();
        std::lock_guard<std::mutex> guard(self->mutex);
        self->lost = true;
        self->log->line("L " + std::to_string(at) + " " + one_line(why->message));
        self->cv.notify_all();
    }

    bool is_lost() {
        std::lock_guard<std::mutex> guard(mutex);
        return lost;
    }
};

// A session with the torture's fast heartbeat, reporting its loss to `loss`;
// nullptr (after a pause, so a restarting server is not hammered) on failure.
advlock_session *open_session(const std::string &url, LossSignal &loss) {
    advlock_session_options options;
    advlock_session_options_init(&options, ADVLOCK_SESSION_OPTIONS_VERSION);
    options.application_name = "torture";
    options.heartbeat_interval_ms = 300;
    options.heartbeat_deadline_ms = 700;
    options.on_lost = &LossSignal::callback;
    options.on_lost_payload = &loss;
    advlock_session *session = nullptr;
    if (advlock_session_open(&session, url.c_str(), &options) != ADVLOCK_OK) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        return nullptr;
    }
    return session;
}

void session_worker(const std::string &url, const std::string &name, Log &log, int hold_ms) {
    long long seq = 0;
    advlock_target target;  // the name (MySQL locks it) and its key
    advlock_target_from_name(&target, name.data(), name.size());
    while (!stopping) {
        LossSignal loss;
        loss.log = &log;
        advlock_session *session = open_session(url, loss);
        if (!session) continue;
        int64_t server_id = 0;
        advlock_session_server_id(&server_id, session);
        while (!stopping) {
            advlock_lock *lock = nullptr;
            const advlock_status status =
                advlock_session_lock(&lock, session, &target, ADVLOCK_EXCLUSIVE, 500);
            if (status == ADVLOCK_NOT_ACQUIRED) continue;
            if (status != ADVLOCK_OK) break;  // lost, connection gone...: a new session
            ++seq;
            log.line("E " + std::to_string(seq) + " " + std::to_string(now_ns()) + " " + std::to_string(server_id));
            bool lost = false;
            {
                std::unique_lock<std::mutex> wait(loss.mutex);
                lost = loss.cv.wait_for(wait, std::chrono::milliseconds(hold_ms), [&] { return loss.lost; });
            }
            log.line("X " + std::to_string(seq) + " " + std::to_string(now_ns()) + (lost ? " lost" : " ok"));
            advlock_lock_free(lock);
            if (lost) break;
        }
        advlock_session_free(session);
    }
}

bool exec_ok(PGconn *conn, const std::string &sql) {
    PGresult *result = PQexec(conn, sql.c_str());
    const ExecStatusType status = PQresultStatus(result);
    PQclear(result);
    return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

void xact_worker(const std::string &url, const std::string &name, Log &log, int hold_ms, int worker) {
    advlock_key key;
    advlock_key_from_name(&key, name.data(), name.size());
    long long seq = 0;
    while (!stopping) {
        PGconn *conn = PQconnectdb(url.c_str());
        if (PQstatus(conn) != CONNECTION_OK) {
            PQfinish(conn);
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            continue;
        }
        while (!stopping && PQstatus(conn) == CONNECTION_OK) {
            if (!exec_ok(conn, "BEGIN")) break;
            const advlock_status status = advlock_xact_lock(conn, &key, ADVLOCK_EXCLUSIVE, 500);
            if (status != ADVLOCK_OK) {
                exec_ok(conn, "ROLLBACK");
                continue;
            }
            ++seq;
            const std::string row = std::to_string(worker) + ", " + std::to_string(seq);
            const bool done =
                exec_ok(conn, "INSERT INTO torture_work (worker, seq, entered) VALUES (" + row + ", clock_timestamp())") &&
                exec_ok(conn, "SELECT pg_sleep(" + std::to_string(hold_ms / 1000.0) + ")") &&
                exec_ok(conn, "UPDATE torture_work SET exited = clock_timestamp() WHERE worker = " +
                                  std::to_string(worker) + " AND seq = " + std::to_string(seq)) &&
                exec_ok(conn, "COMMIT");
            log.line(std::string(done ? "C " : "A ") + std::to_string(seq) + " " + std::to_string(now_ns()));
            if (!done) exec_ok(conn, "ROLLBACK");
        }
        PQfinish(conn);
    }
}

// The outcome of one fenced section's data transaction, and its log letter.
enum class Outcome : char { committed = 'C', fenced_out = 'F', aborted = 'A' };

// The work of one fenced section on the data connection: BEGIN, the row (the
// server's clock at the start of the work), the work itself, COMMIT, with the
// fence check at one of the two places a job may put it. Sections alternate:
// checked first, the check's row lock holds the next holder's grant back for
// the whole work (a stale holder still commits, but never alongside the next
// one); checked last, just before COMMIT (the usual place), a holder whose
// lock was lost during the work is fenced out. Both must give 0 overlaps.
Outcome fenced_transaction(PGconn *data, const advlock_key &key, int64_t token, const std::string &row,
                           int hold_ms, bool check_first, std::string &why) {
    const auto fail = [&](Outcome outcome, std::string reason) {
        why = one_line(std::move(reason));
        exec_ok(data, "ROLLBACK");
        return outcome;
    };
    Outcome outcome = Outcome::committed;
    const auto check_fails = [&] {
        const advlock_status status = advlock_fence_check(data, &key, token);
        if (status == ADVLOCK_OK) return false;
        outcome = fail(status == ADVLOCK_EFENCED ? Outcome::fenced_out : Outcome::aborted, advlock_error_last()->message);
        return true;
    };
    if (!exec_ok(data, "BEGIN")) return fail(Outcome::aborted, PQerrorMessage(data));
    if (check_first && check_fails()) return outcome;
    if (!exec_ok(data, "INSERT INTO torture_fenced (token, worker, seq, started_at) VALUES (" + row +
                           ", clock_timestamp())") ||
        !exec_ok(data, "SELECT pg_sleep(" + std::to_string(hold_ms / 1000.0) + ")")) {
        return fail(Outcome::aborted, PQerrorMessage(data));
    }
    if (!check_first && check_fails()) return outcome;
    if (!exec_ok(data, "COMMIT")) return fail(Outcome::aborted, PQerrorMessage(data));
    return Outcome::committed;
}

void fenced_worker(const std::string &url, const std::string &name, Log &log, int hold_ms, int worker) {
    long long seq = 0;
    advlock_target target;
    advlock_target_from_name(&target, name.data(), name.size());
    PGconn *data = nullptr;  // the job's own connection, kept across sessions
    while (!stopping) {
        LossSignal loss;
        loss.log = &log;
        advlock_session *session = open_session(url, loss);
        if (!session) continue;
        int64_t server_id = 0;
        advlock_session_server_id(&server_id, session);
        while (!stopping && !loss.is_lost()) {
            if (!data || PQstatus(data) != CONNECTION_OK) {
                PQfinish(data);
                data = PQconnectdb(url.c_str());
                if (PQstatus(data) != CONNECTION_OK) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(50));
                    continue;
                }
            }
            advlock_lock_options options;
            advlock_lock_options_init(&options, ADVLOCK_LOCK_OPTIONS_VERSION);
            options.timeout_ms = 500;
            options.flags = ADVLOCK_LOCK_FENCED;
            advlock_lock *lock = nullptr;
            const advlock_status status = advlock_session_acquire(&lock, session, &target, ADVLOCK_EXCLUSIVE, &options);
            if (status == ADVLOCK_NOT_ACQUIRED) continue;
            if (status != ADVLOCK_OK) {  // lost, connection gone...: a new session
                log.line("N " + std::to_string(now_ns()) + " " + one_line(advlock_error_last()->message));
                break;
            }
            int64_t token = 0;
            advlock_key key;
            advlock_lock_fence_token(&token, lock);
            advlock_lock_key(&key, lock);
            ++seq;
            const std::string tag = std::to_string(seq) + " ";
            log.line("E " + tag + std::to_string(now_ns()) + " " + std::to_string(server_id) + " " +
                     std::to_string(token));
            std::string why;
            const std::string row = std::to_string(token) + ", " + std::to_string(worker) + ", " + std::to_string(seq);
            const Outcome outcome = fenced_transaction(data, key, token, row, hold_ms, seq % 2 == 0, why);
            log.line(std::string(1, static_cast<char>(outcome)) + " " + tag + std::to_string(now_ns()) + " " +
                     std::to_string(token) + (why.empty() ? "" : " " + why));
            advlock_lock_free(lock);  // releases it (a lost one: nothing to release)
        }
        advlock_session_free(session);
    }
    PQfinish(data);
}

int print_fence_sql() {
    char *sql = nullptr;
    if (advlock_sql_fence(&sql) != ADVLOCK_OK) {
        std::fprintf(stderr, "torture_worker: advlock_sql_fence: %s\n", advlock_error_last()->message);
        return 70;
    }
    std::fputs(sql, stdout);
    advlock_free(sql);
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc == 2 && std::strcmp(argv[1], "sql-fence") == 0) return print_fence_sql();
    const bool session = argc >= 6 && std::strcmp(argv[1], "session") == 0;
    const bool with_id = argc >= 7 && (std::strcmp(argv[1], "xact") == 0 || std::strcmp(argv[1], "session-fenced") == 0);
    if (!session && !with_id) {
        std::fprintf(stderr,
                     "usage: torture_worker session|xact|session-fenced URL LOCK_NAME LOG_FILE HOLD_MS [WORKER_ID]\n"
                     "       torture_worker sql-fence\n");
        return 64;
    }
    std::signal(SIGTERM, [](int) { stopping = true; });
    std::signal(SIGINT, [](int) { stopping = true; });
    Log log(argv[4]);
    const int hold_ms = std::atoi(argv[5]);
    if (session) {
        session_worker(argv[2], argv[3], log, hold_ms);
    } else if (std::strcmp(argv[1], "xact") == 0) {
        xact_worker(argv[2], argv[3], log, hold_ms, std::atoi(argv[6]));
    } else {
        fenced_worker(argv[2], argv[3], log, hold_ms, std::atoi(argv[6]));
    }
    return 0;
}
