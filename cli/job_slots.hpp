// Job slots, "at most N at once" (--slots N): the option, and the words for a
// lock whose every slot is held. Which slot to take and the slots' keys are
// the library's (advlock_lock_options.slots, advlock_key_slot): the command
// only names them.
#pragma once

#include <optional>
#include <string>

#include "advlock.hpp"
#include "arguments.hpp"
#include "lock_target.hpp"

namespace advlock::cli {

// --slots N: 1..ADVLOCK_SLOTS_MAX, or 0 when not given. 1 is slot 1 alone
// (the library's rule), never the plain lock, so a "--slots 1" run still
// counts against the "--slots 3" runs of the same job.
unsigned slots_option(const Arguments &arguments, const std::string &subcommand);

// Slot `slot` of target, labelled "NAME slot S" in messages.
LockTarget slot_target(const LockTarget &target, unsigned slot);

// One line per slot naming who holds it, each ending in "\n", for the
// message of a run that found every slot taken.
std::string slot_holder_lines(advlock::session &session, const LockTarget &target,
                              const std::optional<advlock::registry> &registry, unsigned slots,
                              const std::string &unseen = kHolderUnseen);

}  // namespace advlock::cli
