// Who holds or waits for which advisory lock, read from pg_locks and
// pg_stat_activity. Never a trial lock: looking must not make a job skip.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <libpq-fe.h>

#include "session/holder.hpp"

namespace advlock::core {

class Registry;

std::vector<Holder> list_holders(PGconn *conn, const Registry *registry, const std::optional<Key> &only_key,
                                 int self_pid, const std::vector<std::string> &secrets);

}  // namespace advlock::core
