// advlock status: who holds or waits for which lock, read from pg_locks (never
// by taking a lock), with registry names.
#include <algorithm>
#include <iostream>

#include <nlohmann/json.hpp>

#include "../arguments.hpp"
#include "../exit_codes.hpp"
#include "../json_text.hpp"
#include "../lock_target.hpp"
#include "commands.hpp"

namespace advlock::cli {

namespace {

std::string iso_time(long long unix_us) { return unix_us ? utc_time(unix_us, /*iso=*/true) : ""; }

// A JSON string, or null; never invalid UTF-8.
nlohmann::ordered_json json_or_null(const std::optional<std::string> &text) {
    return text ? nlohmann::ordered_json(json_text(*text)) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json json_time(long long unix_us) {
    return unix_us ? nlohmann::ordered_json(iso_time(unix_us)) : nlohmann::ordered_json(nullptr);
}

// {"version": 1, "holders": [...], "note": null}: versioned so fields can be
// added (and, under a new version, changed) without breaking scripts that read
// it; note says what the server could not show (MySQL), null when the list is
// complete.
// ordered_json: the fields in the order written here, version first.
void print_json(const std::vector<advlock::holder> &rows, const std::string &note) {
    nlohmann::ordered_json holders = nlohmann::ordered_json::array();
    for (const advlock::holder &h : rows) {
        const advlock_pg_locks_key pg = h.key.to_pg_locks();
        holders.push_back({
            {"key", h.key.to_string()},
            {"name", json_or_null(h.lock_name)},
            {"mode", h.mode == advlock::mode::shared ? "shared" : "exclusive"},
            {"granted", h.granted},
            {"pid", h.server_id},
            {"user", json_or_null(h.user)},
            {"application", json_or_null(h.application_name)},
            {"client_addr", json_or_null(h.client_addr)},
            {"client_hostname", json_or_null(h.client_hostname)},
            {"connected_since", json_time(h.backend_start_unix_us)},
            {"waiting_since", json_time(h.wait_start_unix_us)},
            {"details_hidden", h.details_hidden},
            {"pg_locks", {{"classid", pg.classid}, {"objid", pg.objid}, {"objsubid", pg.objsubid}}},
        });
    }
    const nlohmann::ordered_json out = {
        {"version", 1},
        {"holders", std::move(holders)},
        {"note", note.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(json_text(note))},
    };
    std::cout << out.dump(2) << "\n";
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
                         std::to_string(h.server_id), cell(h.application_name.value_or(h.details_hidden ? "(hidden)" : "-")),
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
        print_json(rows, note);  // the note goes in the object, for the script that reads it
    } else {
        print_table(rows);
        if (!note.empty()) std::cerr << "advlock status: note: " << note << "\n";
    }
    return exit_code::ok;
}

}  // namespace advlock::cli
