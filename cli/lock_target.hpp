// What every lock-taking subcommand shares: which database (--db), which lock
// (--key or --name, through --registry when given), opening the session, and
// turning advlock's errors into exit codes.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "advlock.hpp"
#include "arguments.hpp"
#include "config/config_file.hpp"

namespace advlock::cli {

// The options behind the functions below, to add to a subcommand's spec;
// with sets, --key and --name may repeat (lock_targets).
std::vector<OptionSpec> target_options(bool sets = false);

struct LockTarget {
    advlock::key key;
    std::string label;  // what messages call the lock: its name, or the key text
};

// The configuration: --config FILE, else /etc/advlock.toml when it exists
// (exit 78 when it is unreadable or invalid).
std::optional<ConfigFile> config_option(const Arguments &arguments);

// A setting from the command line (--name) when given, else from the config
// file (setting), else nothing.
std::optional<std::string> setting(const Arguments &arguments, const std::optional<ConfigFile> &config,
                                   const std::string &option, const std::string &config_setting);

// --db (or the config's database), required: cron's bare environment must
// never silently fall back to something that excludes less. "local",
// "local:/dir" or "file:/dir" name the host-local flock backend.
std::string database_url(const Arguments &arguments, const std::optional<ConfigFile> &config,
                         const std::string &subcommand);

bool is_local(const std::string &url);

// --registry FILE (or the config's registry), when given (exit 78 when invalid).
std::optional<advlock::registry> registry_option(const Arguments &arguments,
                                                 const std::optional<ConfigFile> &config);

// --key TEXT or --name NAME (exactly one). A name is looked up in the
// registry when there is one, and must be there; else it is the advlock key of
// the name.
LockTarget lock_target(const Arguments &arguments, const std::optional<advlock::registry> &registry,
                       const std::string &subcommand);

// Every --key and --name given (the keys first; a set's order does not
// matter, the library takes it in key order), at least one, each as
// lock_target reads it.
std::vector<LockTarget> lock_targets(const Arguments &arguments, const std::optional<advlock::registry> &registry,
                                     const std::string &subcommand);

// "{daily_sales, inventory}": a set's labels, for messages.
std::string set_label(const std::vector<LockTarget> &targets);

// stop_grace: how long the command may take to stop its job after a loss
// (run: --kill-grace); the server frees the locks only after that too.
advlock::session open_session(const std::string &url, const std::string &application_name,
                              std::chrono::milliseconds stop_grace = std::chrono::milliseconds(0));

// The exit code for an advlock error.
int exit_code_for(const advlock::error &error);

// "2026-11-30 02:00:01 UTC"; with iso = true "2026-11-30T02:00:01Z".
std::string utc_time(long long unix_us, bool iso = false);

// "pid 4242 (application nightly, user app, from 10.0.0.5) since 2026-11-30 02:00:01 UTC",
// every name in it escaped for the terminal.
std::string describe_holder(const advlock::holder &holder);

// Why a lock may be refused while no holder shows (holder_line's default).
inline constexpr const char *kHolderUnseen = "it was released just now, or the holder is not visible";

// One line naming who holds the target, or that the server would not say, or
// (unseen) why no holder shows.
std::string holder_line(advlock::session &session, const LockTarget &target,
                        const std::optional<advlock::registry> &registry, const std::string &unseen = kHolderUnseen);

// For a set: one line for each target another session holds ("a is held by
// pid ..."), or when none shows, one saying that one of them is held
// elsewhere (unseen: why none shows).
std::vector<std::string> set_holder_lines(advlock::session &session, const std::vector<LockTarget> &targets,
                                          const std::optional<advlock::registry> &registry,
                                          const std::string &unseen = kHolderUnseen);

}  // namespace advlock::cli
