#include "local/local_session.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "error.hpp"
#include "keys/key_text.hpp"
#include "local/file_owner.hpp"
#include "registry/registry.hpp"
#include "text/message_text.hpp"
#include "text/utf8.hpp"

namespace advlock::core {

namespace {

constexpr std::chrono::milliseconds kPollInterval{10};

std::string describe(const char *doing, const Key &key, LockMode mode) {
    return std::string(doing) + " " + format_key(key) + (mode == LockMode::Shared ? " (shared)" : "");
}

// The holder's comm: whatever bytes its executable's name had (escaped later,
// where printed), made valid UTF-8 so that it travels as text (C ABI, JSON).
std::string process_name(std::int64_t pid) {
    std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
    std::string name;
    std::getline(comm, name);
    return replace_invalid_utf8(name);
}

std::string process_user(std::int64_t pid) {
    struct stat info {};
    if (::stat(("/proc/" + std::to_string(pid)).c_str(), &info) != 0) return {};
    return user_name(info.st_uid);
}

}  // namespace

// One user call: holds mutex_, and fires the lost callback once it is released
// (the callback may call back into the session).
class LocalSession::Call {
public:
    explicit Call(const LocalSession &session) : session_(session), lock_(session.mutex_) {}
    ~Call() {
        lock_.unlock();
        session_.loss_.fire_if_pending();
    }
    Call(const Call &) = delete;
    Call &operator=(const Call &) = delete;

private:
    const LocalSession &session_;
    std::unique_lock<std::mutex> lock_;
};

std::shared_ptr<LocalSession> LocalSession::open(const std::string &url, int heartbeat_interval_ms) {
    auto directory = std::make_unique<LockDirectory>(url);
    std::shared_ptr<LocalSession> session(new LocalSession(std::move(directory), heartbeat_interval_ms));
    session->watchdog_.start([raw = session.get()] { raw->watch(); });
    return session;
}

LocalSession::~LocalSession() { close(); }

void LocalSession::close_connection() noexcept {
    watchdog_.stop();
    std::lock_guard<std::mutex> guard(mutex_);  // calls in progress leave the files first
    for (auto &[key, held] : held_) ::close(held.file.fd);  // closing releases the flock
    held_.clear();
    holds_.clear();
}

std::int64_t LocalSession::server_session_id() const { return ::getpid(); }

void LocalSession::require_usable(const char *doing, const Key *key) const {
    const auto what = [&] { return std::string(doing) + (key ? " " + format_key(*key) : std::string()); };
    if (is_closed()) throw Misuse(what() + ": the session is closed; open a new one");
    if (loss_.lost()) loss_.throw_lost(what());
}

void LocalSession::scan_files_locked() const {
    if (held_.empty()) return;
    if (!directory_->still_at_path()) {
        loss_.declare("the lock directory " + directory_->path() +
                      " was removed, renamed or replaced while locks were held in it: other processes now lock "
                      "files in another directory of that name");
        return;
    }
    for (const auto &[key, held] : held_) {
        const std::string problem = lock_file_problem(*directory_, lock_file_name(key), held.file);
        if (!problem.empty()) {
            loss_.declare(problem);
            return;
        }
    }
}

void LocalSession::check_files_locked() const {
    scan_files_locked();
    if (loss_.lost()) loss_.throw_lost("check");
}

void LocalSession::check() const {
    Call scope(*this);
    require_usable("check", nullptr);
    check_files_locked();
}

void LocalSession::verify_held(const LockTarget &target, LockMode mode) {
    const Key &key = target.key();
    Call scope(*this);
    require_usable("verify", &key);
    const auto it = held_.find(key);
    if (it == held_.end() || it->second.mode != mode) {
        throw Misuse(describe("verify", key, mode) + ": this session does not hold that lock in that mode");
    }
    check_files_locked();
}

bool LocalSession::attempt_locked(const Key &key, LockMode mode) {
    const auto it = held_.find(key);
    if (it != held_.end()) {
        if (it->second.mode != mode) {
            throw Unsupported(describe("lock", key, mode) + ": this session holds the key in the other mode, and "
                                                            "the local backend cannot hold one key in both modes");
        }
        holds_.add(key, mode);
        return true;
    }
    const std::string name = lock_file_name(key);
    for (int attempt = 0; attempt < 16; ++attempt) {
        const LockFile file = open_lock_file(*directory_, name);
        if (::flock(file.fd, (mode == LockMode::Shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0) {
            const int error = errno;
            ::close(file.fd);
            if (error == EWOULDBLOCK) return false;
            throw IoError("cannot lock " + quoted(directory_->path() + "/" + name, 200) + ": " + std::strerror(error));
        }
        // A file removed between our open and our flock is not the lock any
        // more (the next locker makes a new one): lock the new one instead.
        if (lock_file_problem(*directory_, name, file).empty()) {
            if (held_.empty()) {
                held_since_ = std::chrono::steady_clock::now();
                watchdog_.signals().wake();  // it looks more often while it has no inotify yet
            }
            held_.emplace(key, Held{file, mode});
            holds_.add(key, mode);
            return true;
        }
        ::close(file.fd);
    }
    throw IoError("cannot lock " + quoted(directory_->path() + "/" + name, 200) +
                  ": the file was removed again at every attempt; something is deleting lock files");
}

bool LocalSession::try_lock(const LockTarget &target, LockMode mode) {
    const Key &key = target.key();
    Call scope(*this);
    require_usable("try_lock", &key);
    return attempt_locked(key, mode);
}

bool LocalSession::lock(const LockTarget &target, LockMode mode, long long timeout_ms,
                        const CancelToken *cancel) {
    const Key &key = target.key();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms < 0 ? 0 : timeout_ms);
    const WaitCancelled cancelled(*this, cancel);
    ServerWaits::Wait wait(waits_, cancelled, cancel);
    for (;;) {
        {
            Call scope(*this);
            require_usable("lock", &key);
            if (attempt_locked(key, mode)) return true;
        }
        if (timeout_ms >= 0 && std::chrono::steady_clock::now() >= deadline) return false;
        if (wait.pause(kPollInterval)) throw_wait_ended(describe("lock", key, mode), ": the wait was cancelled");
    }
}

void LocalSession::cancel_server_wait() { waits_.interrupt(); }

void LocalSession::unlock(const LockTarget &target, LockMode mode) {
    const Key &key = target.key();
    Call scope(*this);
    require_usable("unlock", &key);
    const auto it = held_.find(key);
    if (it == held_.end() || it->second.mode != mode) {
        throw Misuse(describe("unlock", key, mode) + ": this session does not hold that lock in that mode");
    }
    check_files_locked();
    if (holds_.remove(key, mode) > 0) return;
    ::close(it->second.file.fd);
    held_.erase(it);
}

void LocalSession::unlock_soon(const LockTarget &target, LockMode mode) noexcept {
    // No file checks and no lost callback: a finalizer must neither report nor call back.
    std::lock_guard<std::mutex> guard(mutex_);
    if (is_closed()) return;
    const auto it = held_.find(target.key());
    if (it == held_.end() || it->second.mode != mode || holds_.remove(target.key(), mode) > 0) return;
    ::close(it->second.file.fd);
    held_.erase(it);
}

long long LocalSession::ledger_completed(const std::string &, const std::string &) {
    check();
    throw Unsupported("--once-per keeps its run ledger in a database table; the local backend has none: "
                      "give --db a PostgreSQL URL");
}

void LocalSession::ledger_record(const std::string &job, const std::string &period, const std::string &) {
    ledger_completed(job, period);
}

HolderList LocalSession::holders(const Registry *registry, const std::optional<LockTarget> &only) {
    const Key *only_key = only ? &only->key() : nullptr;
    Call scope(*this);
    require_usable("holders", nullptr);
    // The lock files of the directory (links not followed), by inode...
    std::unordered_map<ino_t, Key> files;
    const int listing = ::openat(directory_->fd(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (DIR *dir = listing >= 0 ? ::fdopendir(listing) : nullptr) {
        while (const dirent *entry = ::readdir(dir)) {
            const std::optional<Key> key = key_of_lock_file(entry->d_name);
            struct stat info {};
            if (key && ::fstatat(directory_->fd(), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) == 0 &&
                S_ISREG(info.st_mode)) {
                files.emplace(info.st_ino, *key);
            }
        }
        ::closedir(dir);
    } else if (listing >= 0) {
        ::close(listing);
    }
    // ...matched with the kernel's table of flock(2) locks, by device as well:
    // other file systems (another tmpfs /run/lock, in a container or a mount
    // namespace) have lock files with the same small inode numbers.
    struct stat directory_info {};
    if (::fstat(directory_->fd(), &directory_info) != 0) return {{}, {}};
    char device[32];
    std::snprintf(device, sizeof device, "%02x:%02x:", major(directory_info.st_dev), minor(directory_info.st_dev));
    std::vector<Holder> holders;
    std::ifstream table("/proc/locks");
    for (std::string line; std::getline(table, line);) {
        std::istringstream fields(line);
        std::string id, type, advisory, access, pid, where;
        fields >> id >> type;
        const bool waiting = type == "->";
        if (waiting) fields >> type;
        fields >> advisory >> access >> pid >> where;
        if (type != "FLOCK") continue;
        const auto colon = where.rfind(':');
        if (colon == std::string::npos || where.compare(0, colon + 1, device) != 0) continue;
        const auto file = files.find(static_cast<ino_t>(std::stoull(where.substr(colon + 1))));
        if (file == files.end() || (only_key && file->second != *only_key)) continue;
        Holder h;
        h.key = file->second;
        h.mode = access == "READ" ? LockMode::Shared : LockMode::Exclusive;
        h.granted = !waiting;
        h.pid = std::stoi(pid);
        h.is_self = h.pid == ::getpid();
        if (const std::string name = process_name(h.pid); !name.empty()) h.application_name = name;
        if (const std::string user = process_user(h.pid); !user.empty()) h.user = user;
        if (registry) {
            if (const RegistryEntry *entry = registry->find_key(h.key)) h.lock_name = entry->name;
        }
        holders.push_back(std::move(h));
    }
    return {std::move(holders), {}};
}

}  // namespace advlock::core
