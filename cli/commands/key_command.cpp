// advlock key NAME: the key a name turns into, where it shows in pg_locks, and
// the psql expression that computes it; with --slots N also the key of each
// slot, so an operator can find a slot holder in pg_locks.
#include <iostream>

#include "../arguments.hpp"
#include "../exit_codes.hpp"
#include "../job_slots.hpp"
#include "commands.hpp"
#include "advlock.hpp"

namespace advlock::cli {

namespace {

std::string pg_locks_text(const advlock::key &key) {
    const advlock_pg_locks_key pg = key.to_pg_locks();
    return "pg_locks: classid=" + std::to_string(pg.classid) + " objid=" + std::to_string(pg.objid) +
           " objsubid=" + std::to_string(pg.objsubid);
}

// "slot 1: KEY pg_locks: ..." for each slot; nothing without --slots.
void print_slots(const advlock::key &key, unsigned slots) {
    for (unsigned slot = 1; slot <= slots; ++slot) {
        const advlock::key of_slot = key.slot(slot);
        std::cout << "slot " << slot << ": " << of_slot.to_string() << " " << pg_locks_text(of_slot) << "\n";
    }
}

long long prefix_option(const Arguments &arguments) {
    const auto text = arguments.value("prefix");
    if (!text) return 0;
    std::size_t used = 0;
    long long prefix = 0;
    try {
        prefix = std::stoll(*text, &used);
    } catch (...) {
        used = 0;
    }
    if (used == 0 || used != text->size()) throw usage_error("advlock key: --prefix " + advlock::printable(*text) + ": give an integer");
    return prefix;
}

}  // namespace

int key_command(const std::vector<std::string> &args) {
    const Arguments arguments = parse_arguments(
        "key", args, {{"scheme", true}, {"prefix", true}, {"sql", false}, {"slots", true}, {"key", true}},
        /*takes_command=*/false);
    const unsigned slots = slots_option(arguments, "key");
    if (const std::optional<std::string> text = arguments.value("key")) {
        // A key rather than a name (--key 100:1, as advlock run takes it): its slots.
        if (!arguments.positionals.empty()) throw usage_error("advlock key: give a lock name or --key KEY, not both");
        if (arguments.has("scheme") || arguments.has("prefix") || arguments.has("sql")) {
            throw usage_error("advlock key: --scheme, --prefix and --sql turn a name into a key: not with --key");
        }
        try {
            const advlock::key key = advlock::key::parse(*text);
            std::cout << key.to_string() << "\n" << pg_locks_text(key) << "\n";
            print_slots(key, slots);
            return exit_code::ok;
        } catch (const advlock::bad_key &e) {
            throw usage_error(std::string("advlock key: ") + e.what());
        }
    }
    if (arguments.positionals.size() != 1) {
        throw usage_error("advlock key: give exactly one lock name, e.g. advlock key daily_sales");
    }
    const std::string &name = arguments.positionals[0];
    const std::string scheme = arguments.value("scheme").value_or("advlock");
    if (scheme != "advlock" && scheme != "with_advisory_lock") {
        throw usage_error("advlock key: --scheme " + advlock::printable(scheme) + ": give advlock or with_advisory_lock");
    }
    if (arguments.has("prefix") && scheme != "with_advisory_lock") {
        throw usage_error("advlock key: --prefix belongs to --scheme with_advisory_lock");
    }
    if (slots && arguments.flags.count("sql")) {
        throw usage_error("advlock key: --sql prints the name's statement only: not with --slots");
    }
    const long long prefix = prefix_option(arguments);
    try {
        if (scheme == "with_advisory_lock") {
            if (arguments.flags.count("sql")) {
                throw usage_error("advlock key: --sql shows the advlock scheme only (PostgreSQL before 18 has no crc32)");
            }
            const advlock::key key = advlock::key::from_name_compat(name, prefix);
            std::cout << key.to_string() << "\n" << pg_locks_text(key) << "\n";
            print_slots(key, slots);
            return exit_code::ok;
        }
        const advlock::key key = advlock::key::from_name(name);
        if (arguments.flags.count("sql")) {
            std::cout << "SELECT " << advlock::name_key_sql(name) << ";\n";
            return exit_code::ok;
        }
        std::cout << key.to_string() << "\n" << pg_locks_text(key) << "\npsql: SELECT " << advlock::name_key_sql(name)
                  << ";\n";
        print_slots(key, slots);
        return exit_code::ok;
    } catch (const advlock::bad_key &e) {
        throw usage_error(std::string("advlock key: ") + e.what());
    }
}

}  // namespace advlock::cli
