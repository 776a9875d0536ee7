// advlock run: run a command while holding the lock, like flock(1) but across hosts.
#include <iostream>
#include <unistd.h>

#include "../arguments.hpp"
#include "../durations.hpp"
#include "../exit_codes.hpp"
#include "../job/supervised_job.hpp"
#include "../job_slots.hpp"
#include "../lock_target.hpp"
#include "../lost_notice.hpp"
#include "../waiting.hpp"
#include "commands.hpp"

namespace advlock::cli {

namespace {

void check_period(const Arguments &arguments) {
    const std::optional<std::string> period = arguments.value("once-per");
    if (period && *period != "hour" && *period != "day" && *period != "week" && *period != "month") {
        throw usage_error("advlock run: --once-per " + advlock::printable(*period) + ": give hour, day, week or month");
    }
}

int conflict_code(const Arguments &arguments, const std::optional<ConfigFile> &config) {
    const std::optional<std::string> text = setting(arguments, config, "conflict-exit-code", "run.conflict_exit_code");
    if (!text) return exit_code::conflict;
    std::size_t used = 0;
    int code = -1;
    try {
        code = std::stoi(*text, &used);
    } catch (...) {
    }
    if (used != text->size() || code < 0 || code > 255) {
        throw usage_error("advlock run: --conflict-exit-code " + advlock::printable(*text) + ": give an exit code from 0 to 255");
    }
    return code;
}

std::string basename_of(const std::string &path) {
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// --slots and --fence: what they cannot go with is refused before connecting.
LockRequest lock_request(const Arguments &arguments, std::size_t lock_count) {
    if (lock_count > 1) {
        // A set is one lock per --key/--name, all of them or none.
        for (const char *single : {"slots", "fence", "once-per"}) {
            if (arguments.has(single)) {
                throw usage_error(std::string("advlock run: --") + single +
                                  " goes with one lock: not with several --name/--key (a set of locks)");
            }
        }
    }
    LockRequest request;
    request.mode = arguments.flags.count("shared") ? advlock::mode::shared : advlock::mode::exclusive;
    request.slots = slots_option(arguments, "run");
    request.fenced = arguments.flags.count("fence") > 0;
    const bool shared = request.mode == advlock::mode::shared;
    if (request.slots && shared) {
        throw usage_error("advlock run: --slots takes one slot exclusively: not with --shared");
    }
    if (request.fenced && shared) {
        throw usage_error("advlock run: --fence needs the lock exclusively (each holder's token fences out the "
                          "one before): not with --shared");
    }
    if (request.slots && arguments.has("once-per")) {
        // The ledger is checked and written under the lock: with N holders at once, all of them could run.
        throw usage_error("advlock run: --once-per needs one holder at a time: not with --slots");
    }
    return request;
}

// Why the command did not run: who holds the lock, or each of its slots, or
// which locks of the set.
std::string conflict_message(advlock::session &session, const std::vector<LockTarget> &targets,
                             const std::optional<advlock::registry> &registry, const LockRequest &request,
                             const std::string &where, const std::string &command, int code) {
    const std::string not_running = "; not running " + command + " (exit " + std::to_string(code) + ")\n";
    if (targets.size() > 1) {
        std::string busy;
        for (const std::string &line : set_holder_lines(session, targets, registry)) {
            busy += (busy.empty() ? "" : "; ") + line;
        }
        return "advlock: not every lock of " + set_label(targets) + " is free: " + busy + where + not_running;
    }
    const LockTarget &target = targets.front();
    // A fenced grant also waits for the row lock of an earlier holder's checked, still open, transaction.
    const std::string unseen = request.fenced ? std::string(kHolderUnseen) +
                                                    ", or an earlier holder's transaction that checked its fencing "
                                                    "token is still open"
                                              : kHolderUnseen;
    if (!request.slots) return "advlock: " + holder_line(session, target, registry, unseen) + where + not_running;
    return "advlock: every slot of " + target.label + " is held (" + std::to_string(request.slots) + " slots)" +
           where + not_running + slot_holder_lines(session, target, registry, request.slots, unseen);
}

// What the job is told about its lock: the slot it holds, and the fencing
// token to check in its own transaction (the key it is for, and the check as
// one statement, quoted by the library).
EnvironmentVariables lock_environment(const advlock::lock &lock, const LockRequest &request) {
    EnvironmentVariables variables;
    if (request.slots) {
        variables.emplace_back("ADVLOCK_SLOT", std::to_string(lock.slot()));
        variables.emplace_back("ADVLOCK_SLOTS", std::to_string(request.slots));
    }
    if (request.fenced) {
        const std::int64_t token = lock.fence_token();
        const advlock::key held = lock.key();
        variables.emplace_back("ADVLOCK_FENCE_TOKEN", std::to_string(token));
        variables.emplace_back("ADVLOCK_FENCE_KEY", held.to_string());
        variables.emplace_back("ADVLOCK_FENCE_CHECK_SQL", advlock::fence_check_sql(held, token));
    }
    return variables;
}

// The lock (a slot of it, with --slots), or with several --name/--key the
// set; std::nullopt when held elsewhere.
std::optional<advlock::lock_set> take(advlock::session &session, const std::vector<LockTarget> &targets,
                                      const std::optional<advlock::registry> &registry,
                                      std::chrono::milliseconds wait, const LockRequest &request,
                                      SignalRelay &signals) {
    if (targets.size() > 1) return take_locks(session, targets, registry, wait, request.mode, signals);
    std::optional<advlock::lock> lock = take_lock(session, targets.front(), registry, wait, request, signals);
    if (!lock) return std::nullopt;
    std::vector<advlock::lock> locks;
    locks.push_back(std::move(*lock));
    return advlock::lock_set(std::move(locks));
}

}  // namespace

int run_command(const std::vector<std::string> &args) {
    std::vector<OptionSpec> spec = target_options(/*sets=*/true);
    spec.insert(spec.end(), {{"wait", true}, {"shared", false}, {"conflict-exit-code", true}, {"kill-grace", true},
                             {"application-name", true}, {"also-local", false}, {"local-url", true},
                             {"once-per", true}, {"slots", true}, {"fence", false}});
    const Arguments arguments = parse_arguments("run", args, spec, /*takes_command=*/true);
    const std::optional<ConfigFile> config = config_option(arguments);
    const std::string url = database_url(arguments, config, "run");
    const std::optional<advlock::registry> registry = registry_option(arguments, config);
    const std::vector<LockTarget> targets = lock_targets(arguments, registry, "run");
    const LockTarget &target = targets.front();
    const int on_conflict = conflict_code(arguments, config);
    check_period(arguments);
    const std::optional<std::string> wait_text = setting(arguments, config, "wait", "run.wait");
    const std::chrono::milliseconds wait = wait_text ? parse_wait("run", "wait", *wait_text) : std::chrono::milliseconds(0);
    const std::optional<std::string> grace_text = setting(arguments, config, "kill-grace", "run.kill_grace");
    const std::chrono::milliseconds grace =
        grace_text ? parse_duration("run", "kill-grace", *grace_text) : std::chrono::seconds(10);
    const LockRequest request = lock_request(arguments, targets.size());

    const bool also_local =
        arguments.flags.count("also-local") > 0 || (config && config->get("also_local") == std::optional<std::string>("true"));
    if (also_local && is_local(url)) throw usage_error("advlock run: --also-local goes with a database --db, not " + advlock::printable(url));
    const std::string local_url = setting(arguments, config, "local-url", "local_url").value_or("local");
    if (!is_local(local_url)) {
        // Not quoted: a database URL given here may carry a password.
        throw usage_error("advlock run: --local-url is not a local lock URL: give local, local:/DIR or "
                          "local:/DIR?group=NAME");
    }

    // With --also-local, the host's own lock first: jobs on this host then
    // queue there and never hold a database connection just to wait.
    std::optional<advlock::session> local_session;
    std::optional<advlock::lock_set> local_locks;
    if (also_local) {
        local_session = open_session(local_url, "");
        SignalRelay signals;  // only while waiting: a signal during the connect below just ends advlock
        // The same slots on this host (at most N here too), but no token: the local backend issues none.
        local_locks = take(*local_session, targets, registry, wait, LockRequest{request.mode, request.slots}, signals);
        if (!local_locks) {
            std::cerr << conflict_message(*local_session, targets, registry, LockRequest{request.mode, request.slots},
                                          " on this host", arguments.command[0], on_conflict);
            return on_conflict;
        }
    }
    // The server must not free the lock while the job may still be stopping.
    advlock::session session = open_session(
        url, arguments.value("application-name").value_or("advlock run " + basename_of(arguments.command[0])), grace);
    SignalRelay signals;
    std::optional<advlock::lock_set> locks = take(session, targets, registry, wait, request, signals);
    if (!locks) {
        std::cerr << conflict_message(session, targets, registry, request, "", arguments.command[0], on_conflict);
        return on_conflict;
    }
    advlock::lock &lock = (*locks)[0];
    // Messages from here on name the slot held, or the set.
    const std::string held = targets.size() > 1 ? set_label(targets)
                             : request.slots    ? slot_target(target, lock.slot()).label
                                                : target.label;

    const std::optional<std::string> once_per = arguments.value("once-per");
    if (once_per) {
        if (const std::int64_t completed = session.ledger_completed(target.label, *once_per)) {
            std::cerr << "advlock: " << target.label << " already completed this " << *once_per << " (at "
                      << utc_time(completed) << "); not running " << arguments.command[0] << "\n";
            return exit_code::ok;
        }
    }

    LostNotice lost(session);
    if (local_session) lost.watch(*local_session);
    SupervisedJob job(arguments.command, grace, lock_environment(lock, request));
    std::optional<int> status = job.wait(signals, lost.fd());
    if (!status) {
        std::cerr << "advlock: the lock on " << held << " was lost (" << lost.why() << "); stopping "
                  << arguments.command[0] << " and everything it started (SIGTERM, SIGKILL after "
                  << format_duration(grace) << ")" << std::endl;
        job.stop(signals);
        return exit_code::lost;
    }
    if (once_per && *status == 0) {
        char host[256] = {};
        ::gethostname(host, sizeof host - 1);
        session.ledger_record(target.label, *once_per, host);
    }
    try {
        if (locks->size() > 1) {
            locks->release();
        } else {
            lock.release();
        }
    } catch (const advlock::lock_lost &e) {
        std::cerr << "advlock: " << arguments.command[0] << " finished, but the lock on " << held
                  << " had been lost meanwhile: " << e.what() << "\n";
        return exit_code::lost;
    }
    return *status;
}

}  // namespace advlock::cli
