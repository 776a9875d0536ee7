#include "job_slots.hpp"

#include "exit_codes.hpp"

namespace advlock::cli {

unsigned slots_option(const Arguments &arguments, const std::string &subcommand) {
    const std::optional<std::string> text = arguments.value("slots");
    if (!text) return 0;
    const std::string where = "advlock " + subcommand + ": --slots " + advlock::printable(*text);
    unsigned long slots = 0;
    std::size_t used = 0;
    try {
        if (!text->empty() && (*text)[0] != '-' && (*text)[0] != '+') slots = std::stoul(*text, &used);
    } catch (...) {
        used = 0;
    }
    if (used == 0 || used != text->size()) {
        throw usage_error(where + ": give a number of slots from 1 to " + std::to_string(ADVLOCK_SLOTS_MAX));
    }
    if (slots < 1 || slots > ADVLOCK_SLOTS_MAX) {
        throw usage_error(where + ": give a number of slots from 1 to " + std::to_string(ADVLOCK_SLOTS_MAX));
    }
    return static_cast<unsigned>(slots);
}

LockTarget slot_target(const LockTarget &target, unsigned slot) {
    return LockTarget{target.key.slot(slot), target.label + " slot " + std::to_string(slot)};
}

std::string slot_holder_lines(advlock::session &session, const LockTarget &target,
                              const std::optional<advlock::registry> &registry, unsigned slots,
                              const std::string &unseen) {
    std::string lines;
    for (unsigned slot = 1; slot <= slots; ++slot) {
        lines += "advlock:   " + holder_line(session, slot_target(target, slot), registry, unseen) + "\n";
    }
    return lines;
}

}  // namespace advlock::cli
