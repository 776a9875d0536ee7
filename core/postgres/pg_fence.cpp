#include "postgres/pg_fence.hpp"

#include "error.hpp"
#include "keys/key_text.hpp"
#include "postgres/pg_borrowed_connection.hpp"
#include "postgres/pg_errors.hpp"

namespace advlock::core {

namespace {

// The key's canonical text is digits, ':' and '-' only: safe as a literal.
std::string key_literal(const Key &key) { return "'" + format_key(key) + "'"; }

constexpr const char *kUnlessInside =
    "so the check's row lock would end with the statement and the next holder's token would not wait for "
    "your commit";

}  // namespace

std::string fence_ddl() {
    return R"SQL(-- Fencing tokens of advlock session locks taken with ADVLOCK_LOCK_FENCED
-- (advlock run --fence): one row per lock key, the latest token issued.
-- Never delete or lower a row: tokens must only grow.
CREATE TABLE IF NOT EXISTS public.advlock_fence (
    lock_key  pg_catalog.text        PRIMARY KEY,  -- the key as advlock prints it: "100:1", "-42"
    token     pg_catalog.int8        NOT NULL,     -- the latest token issued for the key
    issued_at pg_catalog.timestamptz NOT NULL DEFAULT pg_catalog.now()
);

-- The next token of a key, called by the lock's holder right after the grant.
-- Waits (or with for_try fails at once, 55P03) while an older holder's checked
-- transaction still holds the row.
CREATE OR REPLACE FUNCTION public.advlock_fence_next(for_key pg_catalog.text, for_try pg_catalog.bool)
RETURNS pg_catalog.int8 LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $advlock$
DECLARE
    issued pg_catalog.int8;
BEGIN
    IF for_try THEN
        PERFORM 1 FROM public.advlock_fence f WHERE f.lock_key = for_key FOR UPDATE NOWAIT;
    END IF;
    INSERT INTO public.advlock_fence AS f (lock_key, token) VALUES (for_key, 1)
    ON CONFLICT (lock_key) DO UPDATE SET token = f.token + 1, issued_at = pg_catalog.now()
    RETURNING f.token INTO issued;
    RETURN issued;
END
$advlock$;

-- The check a job runs inside its own data transaction before it commits:
-- fails (SQLSTATE 55T01) unless held_token is the key's latest, and keeps the
-- row locked until the transaction ends, so the next holder's token waits.
CREATE OR REPLACE FUNCTION public.advlock_fence_check(for_key pg_catalog.text, held_token pg_catalog.int8)
RETURNS pg_catalog.int8 LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $advlock$
DECLARE
    latest pg_catalog.int8;
BEGIN
    SELECT f.token INTO latest FROM public.advlock_fence f WHERE f.lock_key = for_key FOR SHARE;
    IF latest IS NULL THEN
        RAISE EXCEPTION 'advlock: no fencing token was ever issued for lock %, so token % is not its holder''s',
            for_key, held_token
            USING ERRCODE = '55T01', HINT = 'check the key and the database: the token comes from the lock''s grant';
    ELSIF latest <> held_token THEN
        RAISE EXCEPTION 'advlock: fencing token % of lock % is stale: token % was issued since, so a newer holder has the lock',
            held_token, for_key, latest
            USING ERRCODE = '55T01', HINT = 'roll this transaction back: its work would overlap the new holder''s';
    END IF;
    RETURN latest;
END
$advlock$;
)SQL";
}

std::string fence_next_sql(const Key &key, bool nowait) {
    return "public.advlock_fence_next(" + key_literal(key) + (nowait ? ", true)" : ", false)");
}

std::string fence_check_sql(const Key &key, std::int64_t token) {
    return "SELECT public.advlock_fence_check(" + key_literal(key) + ", " + std::to_string(token) + ")";
}

void throw_if_fence_missing(const std::string &sqlstate, const std::string &doing) {
    if (sqlstate == "42P01" || sqlstate == "42883") {
        throw Unsupported(doing + ": the fencing table public.advlock_fence or its functions do not exist in this "
                                  "database; create them once with: advlock sql fence | psql URL",
                          sqlstate);
    }
}

void fence_check(PGconn *conn, const Key &key, std::int64_t token) {
    const std::string doing = "fence check of lock " + format_key(key) + " token " + std::to_string(token);
    require_transaction(conn, doing, kUnlessInside);
    try {
        run_borrowed(conn, fence_check_sql(key, token), doing);
    } catch (const Error &error) {
        throw_if_fence_missing(error.sqlstate(), doing);
        throw;
    }
}

}  // namespace advlock::core
