// advlock status: who holds or waits for which lock, read from pg_locks (never
// by taking a lock), with registry names.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "../arguments.hpp"
#include "../exit_codes.hpp"
#include "../lock_target.hpp"
#include "commands.hpp"

namespace advlock::cli {

namespace {

std::string json_string(const std::optional<std::string> &text) {
    if (!text) return "null";
    std::string out = "\"";
    for (const char c : *text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char escaped[8];
                    std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
                    out += escaped;
                } else {
                    out += c;
                }
        }
    }
    return out + "\"";
}

std::string iso_time(long long unix_us) { return unix_us ? utc_time(unix_us, /*iso=*/true) : ""; }

void print_json(const std::vector<advlock::holder> &rows) {
    std::cout << "[";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const advlock::holder &h = rows[i];
        const advlock_pg_locks_key pg = h.key.to_pg_locks();
        std::cout << (i ? ",\n " : "\n ") << "{\"key\": " << json_string(h.key.to_string())
                  << ", \"name\": " << json_string(h.lock_name) << ", \"mode\": \""
                  << (h.mode == advlock::mode::shared ? "shared" : "exclusive") << "\", \"granted\": "
                  << (h.granted ? "true" : "false") << ", \"pid\": " << h.pid
                  << ", \"user\": " << json_string(h.user) << ", \"application\": " << json_string(h.application_name)
                  << ", \"client_addr\": " << json_string(h.client_addr)
                  << ", \"client_hostname\": " << json_string(h.client_hostname) << ", \"connected_since\": "
                  << (h.backend_start_unix_us ? json_string(iso_time(h.backend_start_unix_us)) : "null")
                  << ", \"waiting_since\": "
                  << (h.wait_start_unix_us ? json_string(iso_time(h.wait_start_unix_us)) : "null")
                  << ", \"details_hidden\": " << (h.details_hidden ? "true" : "false") << ", \"pg_locks\": {\"classid\": "
                  << pg.classid << ", \"objid\": " << pg.objid << ", \"objsubid\": " << pg.objsubid << "}}";
    }
    std::cout << (rows.empty() ? "]\n" : "\n]\n");
}

void print_table(const std::vector<advlock::holder> &rows) {
    const std::vector<std::string> header = {"LOCK", "KEY", "MODE", "STATE", "PID", "APPLICATION", "USER", "CLIENT", "SINCE"};
    std::vector<std::vector<std::string>> table = {header};
    // Lock names (any UTF-8) and application, process, user and host names
    // (anyone's to choose) are escaped and bounded for the terminal.
    const auto cell = [](const std::string &text) { return advlock::printable(text, 200); };
    for (const advlock::holder &h : rows) {
        table.push_back({cell(h.lock_name.value_or("-")), h.key.to_string(),
                         h.mode == advlock::mode::shared ? "shared" : "exclusive", h.granted ? "holds" : "waits",
                         std::to_string(h.pid), cell(h.application_name.value_or(h.details_hidden ? "(hidden)" : "-")),
                         cell(h.user.value_or("-")), cell(h.client_hostname.value_or(h.client_addr.value_or("-"))),
                         iso_time(h.granted ? h.backend_start_unix_us : h.wait_start_unix_us)});
    }
    std::vector<std::size_t> widths(header.size(), 0);
    for (const auto &row : table) {
        for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
    }
    for (const auto &row : table) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            line += row[c];
            if (c + 1 < row.size()) line += std::string(widths[c] - row[c].size() + 2, ' ');
        }
        std::cout << line << "\n";
    }
    if (rows.empty()) std::cout << "(no advisory locks held or awaited in this database)\n";
}

}  // namespace

int status_command(const std::vector<std::string> &args) {
    std::vector<OptionSpec> spec = target_options();
    spec.push_back({"json", false});
    const Arguments arguments = parse_arguments("status", args, spec, /*takes_command=*/false);
    if (!arguments.positionals.empty()) throw usage_error("advlock status: unexpected " + advlock::printable(arguments.positionals[0]));
    const std::optional<ConfigFile> config = config_option(arguments);
    const std::string url = database_url(arguments, config, "status");
    const std::optional<advlock::registry> registry = registry_option(arguments, config);
    std::optional<LockTarget> target;
    if (arguments.has("key") || arguments.has("name")) target = lock_target(arguments, registry, "status");
    advlock::session session = open_session(url, "advlock status");
    std::string note;  // what the server could not show (MySQL)
    const std::vector<advlock::holder> rows =
        session.holders(registry ? &*registry : nullptr, target ? &target->key : nullptr, &note);
    if (arguments.flags.count("json")) {
        print_json(rows);
    } else {
        print_table(rows);
    }
    if (!note.empty()) std::cerr << "advlock status: note: " << note << "\n";
    return exit_code::ok;
}

}  // namespace advlock::cli
