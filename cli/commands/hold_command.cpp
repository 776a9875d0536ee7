// advlock hold: take a lock and keep it until interrupted (or for a while), to
// pause a batch during maintenance or to check that a job skips.
#include <iostream>
#include <poll.h>

#include "../arguments.hpp"
#include "../durations.hpp"
#include "../exit_codes.hpp"
#include "../lock_target.hpp"
#include "../lost_notice.hpp"
#include "../signal_relay.hpp"
#include "../waiting.hpp"
#include "commands.hpp"

namespace advlock::cli {

int hold_command(const std::vector<std::string> &args) {
    std::vector<OptionSpec> spec = target_options();
    spec.insert(spec.end(), {{"for", true}, {"wait", true}, {"shared", false}});
    const Arguments arguments = parse_arguments("hold", args, spec, /*takes_command=*/false);
    if (!arguments.positionals.empty()) throw usage_error("advlock hold: unexpected " + advlock::printable(arguments.positionals[0]));
    const std::optional<ConfigFile> config = config_option(arguments);
    const std::string url = database_url(arguments, config, "hold");
    const std::optional<advlock::registry> registry = registry_option(arguments, config);
    const LockTarget target = lock_target(arguments, registry, "hold");
    const bool limited = arguments.has("for");
    const std::chrono::milliseconds hold_for =
        limited ? parse_duration("hold", "for", *arguments.value("for")) : std::chrono::hours(24 * 365 * 100);
    const std::chrono::milliseconds wait =
        arguments.value("wait") ? parse_wait("hold", "wait", *arguments.value("wait")) : std::chrono::milliseconds(0);
    const advlock::mode mode = arguments.flags.count("shared") ? advlock::mode::shared : advlock::mode::exclusive;

    advlock::session session = open_session(url, "advlock hold");
    SignalRelay signals;
    std::optional<advlock::lock> lock = take_lock(session, target, registry, wait, LockRequest{mode}, signals);
    if (!lock) {
        std::cerr << "advlock: " << holder_line(session, target, registry) << "\n";
        return exit_code::conflict;
    }
    std::cerr << "advlock: holding " << target.label << " (server pid " << session.server_id() << ")"
              << (limited ? " for " + format_duration(hold_for) : std::string(" until interrupted (Ctrl-C)"))
              << "\n";

    LostNotice lost(session);
    const auto until = std::chrono::steady_clock::now() + hold_for;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
        if (left.count() <= 0) break;
        pollfd fds[2] = {{signals.fd(), POLLIN, 0}, {lost.fd(), POLLIN, 0}};
        ::poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 60000)));
        if (fds[1].revents) {
            std::cerr << "advlock: the lock on " << target.label << " was lost: " << lost.why() << "\n";
            return exit_code::lost;
        }
        SignalEvent event{};
        bool stop = false;
        while (signals.next(event)) stop = stop || event.signal != SIGCHLD;
        if (stop) break;
    }
    lock->release();
    std::cerr << "advlock: released " << target.label << "\n";
    return exit_code::ok;
}

}  // namespace advlock::cli
