#include "lock_target.hpp"

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <limits>
#include <unistd.h>

#include "error.hpp"
#include "exit_codes.hpp"

namespace advlock::cli {

std::vector<OptionSpec> target_options(bool sets) {
    return {{"db", true}, {"key", true, sets}, {"name", true, sets}, {"registry", true}, {"config", true}};
}

bool is_local(const std::string &url) {
    return url == "local" || url.rfind("local:", 0) == 0 || url.rfind("file:", 0) == 0;
}

constexpr const char *kDefaultConfig = "/etc/advlock.toml";

std::optional<ConfigFile> config_option(const Arguments &arguments) {
    std::optional<std::string> path = arguments.value("config");
    if (!path) {
        if (::access(kDefaultConfig, F_OK) != 0) return std::nullopt;
        path = kDefaultConfig;
    }
    try {
        return ConfigFile::load(*path);
    } catch (const core::Error &e) {  // ConfigError, or IoError when unreadable
        throw CliError(exit_code::config, e.what());
    }
}

std::optional<std::string> setting(const Arguments &arguments, const std::optional<ConfigFile> &config,
                                   const std::string &option, const std::string &config_setting) {
    if (const auto value = arguments.value(option)) return value;
    if (config) return config->get(config_setting);
    return std::nullopt;
}

std::string database_url(const Arguments &arguments, const std::optional<ConfigFile> &config,
                         const std::string &subcommand) {
    const std::optional<std::string> url = setting(arguments, config, "db", "database");
    if (!url || url->empty()) {
        throw usage_error("advlock " + subcommand +
                          ": no database given. Give --db postgresql://HOST/DB for a lock across hosts, or "
                          "--db local for a lock on this host only (or set database in /etc/advlock.toml)");
    }
    return *url;
}

std::optional<advlock::registry> registry_option(const Arguments &arguments,
                                                 const std::optional<ConfigFile> &config) {
    const std::optional<std::string> path = setting(arguments, config, "registry", "registry");
    if (!path) return std::nullopt;
    try {
        return advlock::registry::open(*path);
    } catch (const advlock::error &e) {
        throw CliError(exit_code::config, e.what());
    }
}

namespace {

// One --key or --name value, as lock_target reads it.
LockTarget target_of(bool is_key, const std::string &text, const std::optional<advlock::registry> &registry,
                     const std::string &subcommand) {
    try {
        // The label goes into messages and the terminal's waiting line: escaped.
        if (is_key) return LockTarget{advlock::key::parse(text), advlock::printable(text)};
        if (registry) return LockTarget{registry->find(text).key(), advlock::printable(text, 200)};
        return LockTarget{advlock::key::from_name(text), advlock::printable(text, 200)};
    } catch (const advlock::error &e) {
        throw usage_error("advlock " + subcommand + ": " + e.what());
    }
}

}  // namespace

LockTarget lock_target(const Arguments &arguments, const std::optional<advlock::registry> &registry,
                       const std::string &subcommand) {
    if (arguments.has("key") && arguments.has("name")) {
        throw usage_error("advlock " + subcommand + ": give --key or --name, not both");
    }
    return lock_targets(arguments, registry, subcommand).front();
}

std::vector<LockTarget> lock_targets(const Arguments &arguments, const std::optional<advlock::registry> &registry,
                                     const std::string &subcommand) {
    std::vector<LockTarget> targets;
    for (const std::string &key : arguments.all("key")) targets.push_back(target_of(true, key, registry, subcommand));
    for (const std::string &name : arguments.all("name")) {
        targets.push_back(target_of(false, name, registry, subcommand));
    }
    if (targets.empty()) {
        throw usage_error("advlock " + subcommand + ": which lock? Give --key 100:1 (or -42, name:TEXT) or --name JOB");
    }
    return targets;
}

std::string set_label(const std::vector<LockTarget> &targets) {
    std::string label = "{";
    for (std::size_t i = 0; i < targets.size(); ++i) label += (i ? ", " : "") + targets[i].label;
    return label + "}";
}

advlock::session open_session(const std::string &url, const std::string &application_name,
                              std::chrono::milliseconds stop_grace) {
    advlock::session_options options;
    options.application_name = application_name;
    // 0 is the library's default; the library refuses more than an hour, and
    // so does the command (the session cannot open), before starting the job.
    options.stop_grace_ms = static_cast<std::int32_t>(std::min<std::chrono::milliseconds::rep>(
        stop_grace.count(), std::numeric_limits<std::int32_t>::max()));
    return advlock::session::open(url, options);
}

int exit_code_for(const advlock::error &error) {
    switch (error.status()) {
        case ADVLOCK_ELOST:
        case ADVLOCK_EFENCED: return exit_code::lost;  // a newer holder's token: a kind of loss
        case ADVLOCK_EPERMISSION: return exit_code::no_permission;
        case ADVLOCK_EKEY:
        case ADVLOCK_EINVAL:
        case ADVLOCK_ENOTFOUND: return exit_code::usage;
        case ADVLOCK_EREGISTRY:
        case ADVLOCK_ECONFIG:
        case ADVLOCK_EUNSAFEDIR:
        case ADVLOCK_EIO:
        case ADVLOCK_EUNSUPPORTED: return exit_code::config;
        case ADVLOCK_ERROR:
        case ADVLOCK_EMISUSE: return exit_code::software;  // the command misused its own library: a bug
        default: return exit_code::unavailable;
    }
}

std::string utc_time(long long unix_us, bool iso) {
    const std::time_t seconds = static_cast<std::time_t>(unix_us / 1000000);
    std::tm parts{};
    gmtime_r(&seconds, &parts);
    char text[32];
    std::strftime(text, sizeof text, iso ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%d %H:%M:%S UTC", &parts);
    return text;
}

std::string describe_holder(const advlock::holder &holder) {
    std::string text = "pid " + std::to_string(holder.server_id);
    std::string details;
    const auto add = [&](const char *label, const std::optional<std::string> &value) {
        if (!value || value->empty()) return;
        // Application and process names are anyone's to choose: escaped.
        details += (details.empty() ? "" : ", ") + std::string(label) + advlock::printable(*value);
    };
    add("application ", holder.application_name);
    add("user ", holder.user);
    add("from ", holder.client_hostname ? holder.client_hostname : holder.client_addr);
    if (!details.empty()) text += " (" + details + ")";
    if (holder.backend_start_unix_us) text += ", connected since " + utc_time(holder.backend_start_unix_us);
    if (holder.details_hidden) text += " (the server hides more from this role: grant it pg_read_all_stats)";
    return text;
}

std::string holder_line(advlock::session &session, const LockTarget &target,
                        const std::optional<advlock::registry> &registry, const std::string &unseen) {
    try {
        for (const advlock::holder &holder : session.holders(registry ? &*registry : nullptr, &target.key)) {
            if (holder.granted) return target.label + " is held by " + describe_holder(holder);
        }
        return target.label + " is held elsewhere (" + unseen + ")";
    } catch (const advlock::error &) {
        return target.label + " is held elsewhere (the server would not say by whom)";
    }
}

std::vector<std::string> set_holder_lines(advlock::session &session, const std::vector<LockTarget> &targets,
                                          const std::optional<advlock::registry> &registry,
                                          const std::string &unseen) {
    std::vector<std::string> lines;
    try {
        for (const LockTarget &target : targets) {
            for (const advlock::holder &holder : session.holders(registry ? &*registry : nullptr, &target.key)) {
                // This session's own rows are the set's locks granted so far during a wait.
                if (holder.granted && !holder.is_self) {
                    lines.push_back(target.label + " is held by " + describe_holder(holder));
                    break;
                }
            }
        }
    } catch (const advlock::error &) {
        return {"one of " + set_label(targets) + " is held elsewhere (the server would not say by whom)"};
    }
    if (lines.empty()) lines.push_back("one of " + set_label(targets) + " is held elsewhere (" + unseen + ")");
    return lines;
}

}  // namespace advlock::cli
