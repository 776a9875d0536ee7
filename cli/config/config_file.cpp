#include "config/config_file.hpp"

#include <vector>

#include "duration_text.hpp"
#include "error.hpp"
#include "io/read_file.hpp"
#include "text/line_secrets.hpp"
#include "text/message_text.hpp"
#include "toml/toml_reader.hpp"

namespace advlock::cli {

namespace {

using core::toml::Value;

enum class Kind { Text, Boolean, Duration, Wait, ExitCode };

struct Setting {
    const char *name;  // as get() names it: "database", "run.wait"
    Kind kind;
};

const Setting kSettings[] = {
    {"database", Kind::Text},          {"registry", Kind::Text},       {"also_local", Kind::Boolean},
    {"local_url", Kind::Text},
    {"run.wait", Kind::Wait},      {"run.kill_grace", Kind::Duration}, {"run.conflict_exit_code", Kind::ExitCode},
};

// The largest config file read: far more than any needs, small enough that a
// path given by mistake (a log, a device) is refused rather than read.
constexpr std::size_t kMaxFileBytes = 1024 * 1024;

class Reader {
public:
    Reader(std::string origin, std::string_view text, std::map<std::string, std::string> &settings)
        : origin_(std::move(origin)), text_(text), settings_(settings) {}

    void read(const Value &table, const std::string &prefix) {
        for (std::size_t i = 0; i < table.keys.size(); ++i) {
            const std::string name = prefix + table.keys[i];
            const Value &value = table.members[i];
            if (value.is_table() && prefix.empty() && name == "run") {
                read(value, "run.");
                continue;
            }
            const Setting *setting = find(name);
            if (!setting) unknown(name, value.line);
            settings_[name] = text_of(*setting, value);
        }
    }

private:
    [[noreturn]] void fail(int line, const std::string &message) const {
        throw core::ConfigError(core::printable(origin_, 200) + ":" + std::to_string(line) + ": " + message);
    }

    static const Setting *find(const std::string &name) {
        for (const Setting &s : kSettings) {
            if (name == s.name) return &s;
        }
        return nullptr;
    }

    [[noreturn]] void unknown(const std::string &name, int line) const {
        std::vector<std::string> names;
        for (const Setting &s : kSettings) names.emplace_back(s.name);
        // The key may be a connection string written where a value belongs.
        const std::string shown = core::quoted_from_line(core::line_of(text_, line), name, core::kQuotedBytes);
        std::string message = "unknown setting " + shown +
                              "; known: database, registry, also_local, local_url, and under [run]: wait, kill_grace, "
                              "conflict_exit_code";
        const std::string near = core::closest_match(name, names);
        if (!near.empty()) message += " (did you mean " + core::quoted(near) + "?)";
        fail(line, message);
    }

    std::string text_of(const Setting &setting, const Value &value) const {
        const std::string name = core::quoted(setting.name);
        switch (setting.kind) {
            case Kind::Text:
                if (value.kind != Value::Kind::String || value.string.empty()) {
                    fail(value.line, name + " must be a non-empty string");
                }
                return value.string;
            case Kind::Boolean:
                if (value.kind != Value::Kind::Boolean) fail(value.line, name + " must be true or false");
                return value.boolean ? "true" : "false";
            case Kind::Duration:
            case Kind::Wait: {
                if (value.kind != Value::Kind::String) fail(value.line, name + " must be a duration in quotes, e.g. \"30s\"");
                const std::optional<std::chrono::milliseconds> duration = read_duration(value.string);
                if (!duration) fail(value.line, name + ": " + duration_refusal(value.string));
                if (setting.kind == Kind::Wait && duration->count() > kLongestWaitMs) {
                    fail(value.line, name + " = " + core::quoted(value.string) + " is longer than the longest wait, " +
                                         kLongestWaitText);
                }
                return value.string;
            }
            case Kind::ExitCode:
                if (value.kind != Value::Kind::Integer || value.integer < 0 || value.integer > 255) {
                    fail(value.line, name + " must be an exit code from 0 to 255");
                }
                return std::to_string(value.integer);
        }
        fail(value.line, name + ": unexpected value");
    }

    std::string origin_;
    std::string_view text_;
    std::map<std::string, std::string> &settings_;
};

}  // namespace

ConfigFile ConfigFile::parse(std::string_view text, const std::string &origin) {
    ConfigFile config;
    config.origin_ = origin;
    Value root;
    try {
        root = core::toml::parse(text);
    } catch (const core::toml::SyntaxError &e) {
        throw core::ConfigError(core::printable(origin, 200) + ":" + std::to_string(e.line()) + ": " + e.what());
    }
    Reader(origin, text, config.settings_).read(root, "");
    return config;
}

ConfigFile ConfigFile::load(const std::string &path) {
    return parse(core::read_small_file(path, "config file", kMaxFileBytes), path);
}

std::optional<std::string> ConfigFile::get(const std::string &setting) const {
    const auto it = settings_.find(setting);
    return it == settings_.end() ? std::nullopt : std::optional<std::string>(it->second);
}

}  // namespace advlock::cli
