// One worker of the exclusion torture (tests/torture/torture.py): takes one
// lock again and again and records when it believes it entered and left the
// critical section, on the machine's monotonic clock, one line per event in
// its own log file (the checker merges the files).
//
//   torture_worker session URL LOCK_NAME LOG_FILE HOLD_MS
//   torture_worker xact    URL LOCK_NAME LOG_FILE HOLD_MS WORKER_ID
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
        std::string reason = why->message;
        for (char &c : reason) c = c == '\n' ? ' ' : c;
        self->log->line("L " + std::to_string(at) + " " + reason);
        self->cv.notify_all();
    }
};

void session_worker(const std::string &url, const std::string &name, Log &log, int hold_ms) {
    long long seq = 0;
    advlock_target target;  // the name (MySQL locks it) and its key
    advlock_target_from_name(&target, name.data(), name.size());
    while (!stopping) {
        LossSignal loss;
        loss.log = &log;
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
            continue;
        }
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

}  // namespace

int main(int argc, char **argv) {
    if (argc < 6 || (std::strcmp(argv[1], "xact") == 0 && argc < 7)) {
        std::fprintf(stderr, "usage: torture_worker session|xact URL LOCK_NAME LOG_FILE HOLD_MS [WORKER_ID]\n");
        return 64;
    }
    std::signal(SIGTERM, [](int) { stopping = true; });
    std::signal(SIGINT, [](int) { stopping = true; });
    Log log(argv[4]);
    const int hold_ms = std::atoi(argv[5]);
    if (std::strcmp(argv[1], "session") == 0) {
        session_worker(argv[2], argv[3], log, hold_ms);
    } else {
        xact_worker(argv[2], argv[3], log, hold_ms, std::atoi(argv[6]));
    }
    return 0;
}
