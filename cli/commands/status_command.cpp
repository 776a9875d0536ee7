// advlock status: who holds or waits for which lock, read from pg_locks (never
// by taking a lock), with registry names; with --slots, who holds each slot.
#include <algorithm>
#include <iostream>

#include <nlohmann/json.hpp>

#include "../arguments.hpp"
#include "../exit_codes.hpp"
#include "../job_slots.hpp"
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

// The holders of one slot of the lock (--slots).
struct SlotHolders {
    unsigned slot;
    advlock::key key;
    std::vector<advlock::holder> rows;
};

nlohmann::ordered_json holder_json(const advlock::holder &h) {
    const advlock_pg_locks_key pg = h.key.to_pg_locks();
    return {
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
    };
}

// {"version": 1, "holders": [...], "note": null}: versioned so fields can be
// added (and, under a new version, changed) without breaking scripts that read
// it; note says what the server could not show (MySQL), null when the list is
// complete. With --slots, "holders" lists every slot's holders and "slots"
// (added after "holders", only then) each slot with its key and holders: a
// script that only reads "holders" still sees them all.
// ordered_json: the fields in the order written here, version first.
void print_json(const std::vector<advlock::holder> &rows, const std::string &note,
                const std::vector<SlotHolders> *slots = nullptr) {
    nlohmann::ordered_json holders = nlohmann::ordered_json::array();
    for (const advlock::holder &h : rows) holders.push_back(holder_json(h));
    nlohmann::ordered_json out = {{"version", 1}, {"holders", std::move(holders)}};
    if (slots) {
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const SlotHolders &slot : *slots) {
            nlohmann::ordered_json of_slot = nlohmann::ordered_json::array();
            for (const advlock::holder &h : slot.rows) of_slot.push_back(holder_json(h));
            list.push_back({{"slot", slot.slot}, {"key", slot.key.to_string()}, {"holders", std::move(of_slot)}});
        }
        out["slots"] = std::move(list);
    }
    out["note"] = note.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(json_text(note));
    std::cout << out.dump(2) << "\n";
}

// Lock names (any UTF-8) and application, process, user and host names
// (anyone's to choose) are escaped and bounded for the terminal.
std::string cell(const std::string &text) { return advlock::printable(text, 200); }

// A holder's row from KEY on (the LOCK column is the caller's).
std::vector<std::string> holder_cells(const advlock::holder &h) {
    return {h.key.to_string(), h.mode == advlock::mode::shared ? "shared" : "exclusive", h.granted ? "holds" : "waits",
            std::to_string(h.server_id), cell(h.application_name.value_or(h.details_hidden ? "(hidden)" : "-")),
            cell(h.user.value_or("-")), cell(h.client_hostname.value_or(h.client_addr.value_or("-"))),
            iso_time(h.granted ? h.backend_start_unix_us : h.wait_start_unix_us)};
}

const std::vector<std::string> kHeader = {"LOCK", "KEY", "MODE", "STATE", "PID", "APPLICATION", "USER", "CLIENT", "SINCE"};

void print_columns(const std::vector<std::vector<std::string>> &table) {
    std::vector<std::size_t> widths(table.at(0).size(), 0);
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
}

void print_table(const std::vector<advlock::holder> &rows) {
    std::vector<std::vector<std::string>> table = {kHeader};
    for (const advlock::holder &h : rows) {
        std::vector<std::string> row = {cell(h.lock_name.value_or("-"))};
        for (std::string &text : holder_cells(h)) row.push_back(std::move(text));
        table.push_back(std::move(row));
    }
    print_columns(table);
    if (rows.empty()) std::cout << "(no advisory locks held or awaited in this database)\n";
}

// One row per holder of each slot, and one for each free slot.
void print_slot_table(const std::vector<SlotHolders> &slots, const std::string &label) {
    std::vector<std::string> header = {"SLOT"};
    header.insert(header.end(), kHeader.begin(), kHeader.end());
    std::vector<std::vector<std::string>> table = {header};
    for (const SlotHolders &slot : slots) {
        if (slot.rows.empty()) {
            table.push_back({std::to_string(slot.slot), label, slot.key.to_string(), "-", "free", "-", "-", "-", "-", "-"});
        }
        for (const advlock::holder &h : slot.rows) {
            std::vector<std::string> row = {std::to_string(slot.slot), label};
            for (std::string &text : holder_cells(h)) row.push_back(std::move(text));
            table.push_back(std::move(row));
        }
    }
    print_columns(table);
}

}  // namespace

int status_command(const std::vector<std::string> &args) {
    std::vector<OptionSpec> spec = target_options();
    spec.insert(spec.end(), {{"json", false}, {"slots", true}});
    const Arguments arguments = parse_arguments("status", args, spec, /*takes_command=*/false);
    if (!arguments.positionals.empty()) throw usage_error("advlock status: unexpected " + advlock::printable(arguments.positionals[0]));
    const std::optional<ConfigFile> config = config_option(arguments);
    const std::string url = database_url(arguments, config, "status");
    const std::optional<advlock::registry> registry = registry_option(arguments, config);
    std::optional<LockTarget> target;
    if (arguments.has("key") || arguments.has("name")) target = lock_target(arguments, registry, "status");
    const unsigned slots = slots_option(arguments, "status");
    if (slots && !target) {
        throw usage_error("advlock status: --slots shows the slots of one lock: give its --name NAME or --key KEY too");
    }
    advlock::session session = open_session(url, "advlock status");
    std::string note;  // what the server could not show (MySQL)
    if (slots) {
        // Each slot is a lock of its own: the holders of each slot's key.
        std::vector<SlotHolders> per_slot;
        std::vector<advlock::holder> all;
        for (unsigned slot = 1; slot <= slots; ++slot) {
            const advlock::key key = slot_target(*target, slot).key;
            std::string slot_note;
            per_slot.push_back({slot, key, session.holders(registry ? &*registry : nullptr, &key, &slot_note)});
            all.insert(all.end(), per_slot.back().rows.begin(), per_slot.back().rows.end());
            if (!slot_note.empty()) note = slot_note;
        }
        if (arguments.flags.count("json")) {
            print_json(all, note, &per_slot);
        } else {
            print_slot_table(per_slot, target->label);
            if (!note.empty()) std::cerr << "advlock status: note: " << note << "\n";
        }
        return exit_code::ok;
    }
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
