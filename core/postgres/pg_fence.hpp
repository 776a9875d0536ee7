// Fencing tokens (advlock.h, @ref fencing): the SQL that issues a lock's next
// token with its grant, and the check a job runs inside its own data
// transaction. The table and both functions live in the schema public,
// named with it everywhere, so no search_path decides which table counts.
//
// Why it is safe: the check reads the lock's row FOR SHARE and fails unless
// the token is the latest; the next holder's increment needs the row FOR
// UPDATE. So either the old holder's transaction commits before the new
// holder gets its token (and before the new holder's work begins), or the
// increment commits first and the old holder's check fails: committed work
// of two holders never overlaps.
#pragma once

#include <cstdint>
#include <string>

#include <libpq-fe.h>

#include "keys/key.hpp"

namespace advlock::core {

// What `advlock sql fence` prints: CREATE TABLE IF NOT EXISTS public.advlock_fence
// and CREATE OR REPLACE of public.advlock_fence_next / public.advlock_fence_check.
std::string fence_ddl();

// The SQLSTATE of a superseded token (the check's RAISE), ADVLOCK_EFENCED.
constexpr const char *kFencedOutSqlstate = "55T01";

// "public.advlock_fence_next('100:1', true)": the expression issuing the key's
// next token. nowait: fail with 55P03 at once while an older holder's checked
// transaction still holds the row (a try), instead of waiting for it.
std::string fence_next_sql(const Key &key, bool nowait);

// "SELECT public.advlock_fence_check('100:1', 7)", for any driver.
std::string fence_check_sql(const Key &key, std::int64_t token);

// The check on the caller's connection, inside its transaction: throws
// FencedOut when a newer token was issued, Unsupported when the fence table
// or functions are missing, Misuse outside a transaction block.
void fence_check(PGconn *conn, const Key &key, std::int64_t token);

// Throws Unsupported naming `advlock sql fence` when sqlstate says the fence
// table or its functions are missing (42P01, 42883); returns otherwise.
void throw_if_fence_missing(const std::string &sqlstate, const std::string &doing);

}  // namespace advlock::core
