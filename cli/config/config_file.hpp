// The advlock configuration file (/etc/advlock.toml by default), so crontab
// lines stay short and do not depend on the environment:
//
//   database = "postgresql://batch@db1/sales"
//   registry = "/etc/advlock/registry.toml"
//   also_local = false
//
//   [run]
//   wait = "0s"
//   kill_grace = "10s"
//   conflict_exit_code = 3
//
// Every setting is optional; command-line options win over it. The file is
// the command's business: the library reads the same TOML (its registry), so
// this reads it with the library's TOML reader (advlock_toml), not the C ABI.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace advlock::cli {

class ConfigFile {
public:
    // Throws core::IoError when unreadable, core::ConfigError
    // (ADVLOCK_ECONFIG, "file:line: ...") when invalid.
    static ConfigFile load(const std::string &path);
    static ConfigFile parse(std::string_view text, const std::string &origin);

    // The setting as text ("database", "run.wait", ...), or nothing when unset.
    // Booleans read "true"/"false", numbers in decimal.
    std::optional<std::string> get(const std::string &setting) const;
    const std::string &origin() const { return origin_; }

private:
    std::string origin_;
    std::map<std::string, std::string> settings_;
};

}  // namespace advlock::cli
