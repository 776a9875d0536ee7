/**
 * @file advlock.h
 * advlock.h: the stable C ABI of advlock, and the only surface the shared
 * library exports. Every binding (Java, Python, Ruby) and the command-line tool
 * go through it.
 *
 * Conventions (libgit2 / SQLite school):
 *  - Every name starts with advlock_ (macros ADVLOCK_): `advlock_<object>_<verb>`.
 *  - Fallible functions return advlock_status: ADVLOCK_OK (0) on success, a
 *    positive value for a non-error outcome such as ADVLOCK_NOT_ACQUIRED, a
 *    negative value for an error. After an error, advlock_error_last() on the
 *    same thread describes it (message, SQLSTATE).
 *  - Output parameters come first and are called `out`. On error, *out is set
 *    to NULL (handles) or left untouched (values) and nothing is leaked.
 *  - Opaque handles are created by `advlock_<object>_open/_new/_parse` and
 *    destroyed by `advlock_<object>_free`, which accepts NULL. A session also
 *    has advlock_session_close: callable from any thread, at any time, twice.
 *  - Strings in are UTF-8. Where a length is taken, ADVLOCK_NUL_TERMINATED
 *    means "up to the first NUL". Strings out are borrowed: each function says
 *    how long the pointer stays valid. The caller never free()s anything.
 *  - No C++ exception ever crosses this boundary.
 *  - Enums are 32-bit ints (each has an *_INT32_ member to make it so);
 *    unknown values passed in are refused with ADVLOCK_EINVAL.
 *  - Options structs carry a version field set by their _init() function or
 *    _INIT macro; fields are only ever appended. Yes/no choices are bits of
 *    an `unsigned flags` (unknown bits are ADVLOCK_EINVAL), never int booleans.
 *  - A lock is named by an advlock_target: a key, and the name it was made
 *    from when it has one (MySQL locks the name itself).
 *  - Every exported function is listed with its signature in
 *    capi/abi/advlock.abi; the build fails when one changes or goes.
 *
 * Thread safety: functions on different handles may be called concurrently. A
 * registry may be read from many threads at once. A session serialises its own
 * calls internally and may be used from many threads; advlock_session_close
 * may come from any of them at any time. Freeing a handle (the _free
 * functions) must be the last use of it by any thread.
 */
#ifndef ADVLOCK_H
#define ADVLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "advlock/status_table.h"
#include "advlock/version.h"

/** Marks the functions the shared library exports (default visibility with
    GCC and Clang): every other symbol stays hidden. */
#if defined(__GNUC__) || defined(__clang__)
#define ADVLOCK_API __attribute__((visibility("default")))
#else
#define ADVLOCK_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Status codes. The values are pinned and the list is append-only.          */
/* ------------------------------------------------------------------------ */
/** @defgroup status Status codes
 * The values are pinned and the list is append-only.
 * @{ */

/** What a fallible call returned: ADVLOCK_OK, a positive outcome that is not
    an error, or a negative error described by advlock_error_last(). */
typedef enum advlock_status {
    ADVLOCK_OK = 0,
    /** The lock is held by someone else (try) or the wait timed out. Not an
       error: advlock_error_last() is not changed. */
    ADVLOCK_NOT_ACQUIRED = 1,

    /** An unexpected internal failure: a bug in advlock; please report it. */
    ADVLOCK_ERROR = -1,
    /** Memory could not be allocated. */
    ADVLOCK_ENOMEM = -2,
    /** A bad argument: NULL where a handle or output is required, an unknown
       enum value, an options struct of an unknown version. */
    ADVLOCK_EINVAL = -3,
    /** A malformed key text, or a lock name that is empty, too long, not
       UTF-8 or contains NUL. */
    ADVLOCK_EKEY = -4,
    /** A registry file is invalid; the message starts with file:line. */
    ADVLOCK_EREGISTRY = -5,
    /** No registry entry with that name or key. */
    ADVLOCK_ENOTFOUND = -6,
    /** A file could not be read. */
    ADVLOCK_EIO = -7,
    /** The API was used out of order: release twice, use after close. */
    ADVLOCK_EMISUSE = -8,
    /** The database could not be reached, or the connection failed. */
    ADVLOCK_ECONNECT = -9,
    /** Unsafe targets: the locks would exclude no one. Refused unless the
       session options opt in. See advlock_status_is_unsafe_target(). */
    ADVLOCK_ESTANDBY = -10,  /**< a hot standby (pg_is_in_recovery()) */
    ADVLOCK_EREADONLY = -11, /**< a read-only server */
    ADVLOCK_EPOOLER = -12,   /**< a connection pooler between client and server */
    /** The lock was lost: the session ended or the server let it go. The job
       must stop acting as the holder. */
    ADVLOCK_ELOST = -13,
    /** A wait was cancelled. */
    ADVLOCK_ECANCELED = -14,
    /** The server's lock table is full (SQLSTATE 53200). */
    ADVLOCK_ECAPACITY = -15,
    /** The server detected a deadlock (SQLSTATE 40P01). */
    ADVLOCK_EDEADLOCK = -16,
    /** The role may not call the advisory-lock functions (SQLSTATE 42501). */
    ADVLOCK_EPERMISSION = -17,
    /** Any other server error; the SQLSTATE is in advlock_error_last(). */
    ADVLOCK_ESERVER = -18,
    /** The backend or server cannot do what was asked. */
    ADVLOCK_EUNSUPPORTED = -19,
    /** A configuration file is invalid; the message starts with file:line. */
    ADVLOCK_ECONFIG = -20,
    /** Unsafe target: a node of a multi-primary cluster (MySQL Galera), where
       a lock excludes only sessions on that same node. Refused unless the URL
       says allow_cluster=true. */
    ADVLOCK_ECLUSTER = -21,
    /** Unsafe target (local backend): the lock directory, or a lock file in
       it, could be replaced or redirected by another user of the host: the
       directory belongs to someone else or others may write to it (without
       being a root-owned sticky directory like /tmp), or the lock file is a
       symbolic link, not a regular file, or has other names. Never opted
       into: the message says what to change. */
    ADVLOCK_EUNSAFEDIR = -22,
    /** The lock was lost and a newer holder took it: a fencing token was
       superseded (advlock_fence_check, SQLSTATE 55T01). The job's transaction
       must roll back; its work would overlap the new holder's. A kind of
       ADVLOCK_ELOST in every binding's exception classes. */
    ADVLOCK_EFENCED = -23,

    /** Not a status: makes the enum a full 32-bit int, so any value a caller
       or a newer library passes is a valid value of the type. */
    ADVLOCK_STATUS_INT32_ = 0x7FFFFFFF
} advlock_status;

/** The enum's name as text ("ADVLOCK_ELOST"). Never NULL; a static string. */
ADVLOCK_API const char *advlock_status_name(advlock_status status);

/** 1 for ADVLOCK_ESTANDBY, ADVLOCK_EREADONLY, ADVLOCK_EPOOLER, ADVLOCK_ECLUSTER,
   ADVLOCK_EUNSAFEDIR; 0 otherwise. */
ADVLOCK_API int advlock_status_is_unsafe_target(advlock_status status);

/** One row of the status table (advlock/status_table.h), for bindings that
   build their exception classes' mapping at load time. Static; never freed. */
typedef struct advlock_status_info {
    advlock_status status; /**< the status the row describes */
    const char *name;    /**< "ADVLOCK_ELOST" */
    const char *kind;    /**< "lock_lost": the outcome's snake_case name */
    const char *Kind;    /**< "LockLost": the same in CamelCase (the class name) */
    const char *parent;  /**< "error", "unsafe_target", or "none" for ADVLOCK_OK
                            and ADVLOCK_NOT_ACQUIRED */
    const char *summary; /**< one line: what it means */
} advlock_status_info;

/** The index-th row of the status table (0, 1, ... in table order), or NULL
   past its end: every status this library returns. */
ADVLOCK_API const advlock_status_info *advlock_status_at(size_t index);

/** The row of a status, or NULL for a value that is not one. */
ADVLOCK_API const advlock_status_info *advlock_status_info_of(advlock_status status);

/** @} */

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */
/** @defgroup errors Errors
 * @{ */

/** An error, as advlock_error_last() gives it. */
typedef struct advlock_error {
    advlock_status status; /**< the error's status; ADVLOCK_OK when none happened */
    /** UTF-8, never NULL. Never contains a password. */
    const char *message;
    /** The server's five-character SQLSTATE, or "" when there was none. */
    const char *sqlstate;
} advlock_error;

/**
 * The last error raised on this thread. Never NULL: when no error happened it
 * is {ADVLOCK_OK, "no error", ""}. The pointer and its strings stay valid until
 * the next advlock_ call on this thread that fails, or advlock_error_clear().
 * Successful calls leave it unchanged.
 */
ADVLOCK_API const advlock_error *advlock_error_last(void);

/** Reset this thread's last error to ADVLOCK_OK. */
ADVLOCK_API void advlock_error_clear(void);

/** @} */

/* ------------------------------------------------------------------------ */
/* Version                                                                   */
/* ------------------------------------------------------------------------ */
/** @defgroup version Version
 * @{ */

/** The version of the library that is running ("0.1.0"); a static string. */
ADVLOCK_API const char *advlock_version(void);

/** ADVLOCK_VERSION_NUMBER of the library that is running. */
ADVLOCK_API int advlock_version_number(void);

/** @} */

/* ------------------------------------------------------------------------ */
/* Keys                                                                      */
/* ------------------------------------------------------------------------ */
/** @defgroup keys Keys
 * @{ */

/** The two key spaces of PostgreSQL; the values equal pg_locks.objsubid. */
typedef enum advlock_key_space {
    ADVLOCK_KEY_BIGINT = 1, /**< one int8 */
    ADVLOCK_KEY_PAIR = 2,   /**< two int4: "category, job id" */
    ADVLOCK_KEY_SPACE_INT32_ = 0x7FFFFFFF /**< not a space: keeps the enum 32 bits wide */
} advlock_key_space;

/** A lock key, a plain value. Only the fields of its space are meaningful. */
typedef struct advlock_key {
    advlock_key_space space; /**< which of the fields below are meaningful */
    int32_t k1;     /**< ADVLOCK_KEY_PAIR: first int4 (pg_locks.classid) */
    int32_t k2;     /**< ADVLOCK_KEY_PAIR: second int4 (pg_locks.objid) */
    int64_t bigint; /**< ADVLOCK_KEY_BIGINT: the int8 key */
} advlock_key;

/** How the key of one lock appears in pg_locks (locktype = 'advisory'). */
typedef struct advlock_pg_locks_key {
    uint32_t classid; /**< oid: unsigned, as pg_locks shows it */
    uint32_t objid;   /**< oid */
    int32_t objsubid; /**< 1: bigint key, 2: pair key */
} advlock_pg_locks_key;

/** A length meaning "the string ends at its first NUL". */
#define ADVLOCK_NUL_TERMINATED SIZE_MAX

/** Longest lock name, in bytes of UTF-8. */
#define ADVLOCK_NAME_MAX_BYTES 1024

/** Buffer size that always holds advlock_key_format()'s text and its NUL. */
#define ADVLOCK_KEY_TEXT_SIZE 32

/** A bigint key: one int8, as pg_advisory_lock(bigint) takes. */
ADVLOCK_API advlock_key advlock_key_bigint(int64_t value);
/** A pair key: two int4, as pg_advisory_lock(int4, int4) takes. */
ADVLOCK_API advlock_key advlock_key_pair(int32_t k1, int32_t k2);

/**
 * The frozen advlock scheme: the first 8 bytes of SHA-256("advlock:" + name),
 * big-endian, signed, as a bigint key. In psql:
 * @code{.sql}
 *   ('x' || left(encode(sha256(convert_to('advlock:' || NAME, 'UTF8')), 'hex'), 16))::bit(64)::bigint
 * @endcode
 * A name is 1..ADVLOCK_NAME_MAX_BYTES bytes of valid UTF-8 without NUL;
 * anything else gives ADVLOCK_EKEY.
 */
ADVLOCK_API advlock_status advlock_key_from_name(advlock_key *out, const char *name,
                                                 size_t name_len);

/**
 * The with_advisory_lock (Ruby gem) scheme, for gradual migrations: the pair
 * (crc32(name) & 0x7fffffff, prefix & 0x7fffffff), where prefix is the gem's
 * WITH_ADVISORY_LOCK_PREFIX (0 when unset). Same name rules as above.
 */
ADVLOCK_API advlock_status advlock_key_from_name_compat(advlock_key *out, const char *name,
                                                        size_t name_len, int64_t prefix);

/**
 * Parse a key written as text:
 * @code{.unparsed}
 *   "100:1"             a pair (two int4, decimal)
 *   "-42"               a bigint (decimal)
 *   "name:daily_sales"  the advlock scheme applied to the text after "name:"
 * @endcode
 * Anything else gives ADVLOCK_EKEY with a message that says what was expected.
 */
ADVLOCK_API advlock_status advlock_key_parse(advlock_key *out, const char *text, size_t text_len);
/* (A key keeps no name: lock an advlock_target from advlock_target_parse,
   which keeps it, or MySQL locks "advlock:N" instead of the name.) */

/**
 * Write the canonical text of a key ("100:1" or "-42") into out, which holds
 * out_size bytes (ADVLOCK_KEY_TEXT_SIZE is always enough). advlock_key_parse
 * reads it back to the same key.
 */
ADVLOCK_API advlock_status advlock_key_format(char *out, size_t out_size, const advlock_key *key);

/** 1 when both keys name the same lock, 0 otherwise (also when either is NULL
   or invalid). */
ADVLOCK_API int advlock_key_equal(const advlock_key *a, const advlock_key *b);

/** Where the key appears in pg_locks, and back. objsubid other than 1 or 2 is
   ADVLOCK_EKEY. */
ADVLOCK_API advlock_status advlock_key_to_pg_locks(advlock_pg_locks_key *out,
                                                   const advlock_key *key);
/** The key of a pg_locks row (classid, objid, objsubid): the way back. */
ADVLOCK_API advlock_status advlock_key_from_pg_locks(advlock_key *out,
                                                     const advlock_pg_locks_key *pg);

/** @} */

/* ------------------------------------------------------------------------ */
/* Lock targets: what a lock call names                                      */
/* ------------------------------------------------------------------------ */
/**
 * @defgroup targets Lock targets: what a lock call names
 * A target is a key, and the name it was made from when it has one.
 * PostgreSQL and the local backend lock the key; MySQL and MariaDB lock the
 * name itself, as GET_LOCK('daily_sales') in other programs does, and a
 * target without a name as "advlock:K1:K2" / "advlock:N". So one target
 * locks the same thing from every language: C, C++, Java, Python and Ruby
 * all lock advlock_target_from_name("daily_sales") for the name
 * "daily_sales". Registry entries and holder rows give targets too.
 *
 * A plain value whose name is borrowed: it points into the text the target
 * was made from (or the registry, or the holder list), which must outlive it.
 * When name is not NULL the key must be the name's advlock key
 * (advlock_key_from_name): the lock calls refuse anything else with
 * ADVLOCK_EKEY, so a key and a name can never disagree about the lock.
 * @{
 */
/** What a lock call names: a key, and the name it was made from when it has
    one (see above). */
typedef struct advlock_target {
    advlock_key key;  /**< the lock's key; the name's advlock key when name is set */
    const char *name; /**< NULL: the target has no name */
    size_t name_len;  /**< bytes of name; ADVLOCK_NUL_TERMINATED allowed */
} advlock_target;

/** A target without a name. */
ADVLOCK_API advlock_target advlock_target_of_key(advlock_key key);

/** The target of a lock name: its advlock key, and the name (borrowed: *out
   points into name). Same name rules as advlock_key_from_name. */
ADVLOCK_API advlock_status advlock_target_from_name(advlock_target *out, const char *name, size_t name_len);

/** As advlock_key_parse; "name:TEXT" keeps TEXT as the name (borrowed: *out
   points into text). */
ADVLOCK_API advlock_status advlock_target_parse(advlock_target *out, const char *text, size_t text_len);

/** @} */

/* ------------------------------------------------------------------------ */
/* Registry: a TOML file that gives each lock a name and a key               */
/* ------------------------------------------------------------------------ */
/**
 * @defgroup registry Registry: a TOML file that gives each lock a name and a key
 * @code{.unparsed}
 *   [locks.daily_sales]
 *   key = [100, 1]            # a pair, or a bigint (key = 7001), or absent:
 *                             # then the advlock scheme of the name
 *   description = "Nightly sales aggregation"
 *
 *   [locks.sales_backfill]
 *   key = [100, 1]
 *   shares_with = ["daily_sales"]   # same key on purpose: they exclude each other
 * @endcode
 *
 * Names are unique ignoring ASCII case, and so are keys unless shares_with
 * says otherwise. Errors are ADVLOCK_EREGISTRY with "file:line: ..." messages.
 * @{
 */

/** A registry file, loaded (opaque). */
typedef struct advlock_registry advlock_registry;
/** One lock of a registry (opaque): borrowed from the registry. */
typedef struct advlock_registry_entry advlock_registry_entry;

/** Load a registry file. ADVLOCK_EIO when it cannot be read. */
ADVLOCK_API advlock_status advlock_registry_open(advlock_registry **out, const char *path);

/** Parse registry text held in memory; origin names it in messages (NULL:
   "<registry>"). */
ADVLOCK_API advlock_status advlock_registry_parse(advlock_registry **out, const char *text,
                                                  size_t text_len, const char *origin);

/** Free the registry, and with it its entries and their strings. Accepts NULL. */
ADVLOCK_API void advlock_registry_free(advlock_registry *registry);

/** Number of locks; 0 for NULL. */
ADVLOCK_API size_t advlock_registry_count(const advlock_registry *registry);

/** The index-th lock in file order, or NULL when out of range. Entries are
   borrowed from the registry and valid until advlock_registry_free. */
ADVLOCK_API const advlock_registry_entry *advlock_registry_at(const advlock_registry *registry,
                                                              size_t index);

/** Look a lock up by name (ignoring ASCII case). ADVLOCK_ENOTFOUND when absent;
   the message suggests a near name. */
ADVLOCK_API advlock_status advlock_registry_find_name(const advlock_registry_entry **out,
                                                      const advlock_registry *registry,
                                                      const char *name, size_t name_len);

/** Look a lock up by key: the first lock in file order with that key (others
   may share it through shares_with). ADVLOCK_ENOTFOUND when absent. */
ADVLOCK_API advlock_status advlock_registry_find_key(const advlock_registry_entry **out,
                                                     const advlock_registry *registry,
                                                     const advlock_key *key);

/** Entry fields. Strings are borrowed from the registry; NULL entry gives NULL
   (strings), ADVLOCK_EINVAL (target) or 0 (line). */
ADVLOCK_API const char *advlock_registry_entry_name(const advlock_registry_entry *entry);
/** The entry's target: its key, with the entry's name when the key is the
   name's advlock key (an entry without a key of its own), so that MySQL locks
   the name itself. The name is borrowed from the registry. */
ADVLOCK_API advlock_status advlock_registry_entry_target(advlock_target *out,
                                                         const advlock_registry_entry *entry);
/** "" when the entry has no description. */
ADVLOCK_API const char *advlock_registry_entry_description(const advlock_registry_entry *entry);
/** Line of the entry's table in the file (1-based). */
ADVLOCK_API unsigned advlock_registry_entry_line(const advlock_registry_entry *entry);

/** @} */

/* ------------------------------------------------------------------------ */
/* Sessions and locks                                                        */
/* ------------------------------------------------------------------------ */
/**
 * @defgroup sessions Sessions and locks
 * A session is one dedicated database connection that holds locks; nothing
 * else uses it and it is never pooled. A lock handle keeps its session's state
 * alive, so handles may be freed in any order; after advlock_session_close,
 * operations on the session and its locks return ADVLOCK_EMISUSE.
 * @{
 */

/** A session (opaque): one dedicated connection holding locks. */
typedef struct advlock_session advlock_session;
/** A lock handle (opaque): one owner of one lock; keeps its session's state alive. */
typedef struct advlock_lock advlock_lock;

/** How a lock is held. */
typedef enum advlock_mode {
    ADVLOCK_EXCLUSIVE = 0, /**< excludes every other holder */
    ADVLOCK_SHARED = 1, /**< shared holders exclude exclusive ones, not each other */
    ADVLOCK_MODE_INT32_ = 0x7FFFFFFF /**< not a mode: keeps the enum 32 bits wide */
} advlock_mode;

/** The version of advlock_session_options this header describes (2 added
    stop_grace_ms; a library also takes version 1 structs, which end before it). */
#define ADVLOCK_SESSION_OPTIONS_VERSION 2

/** Called once when the session's locks are lost. why->status is ADVLOCK_ELOST
   and why->message says what happened; both are valid during the call only.
   It runs on the session's watchdog thread, or on the thread whose call found
   out first; keep it short. It may call advlock functions, including
   advlock_session_close on its own session. */
typedef void (*advlock_lost_callback)(const advlock_error *why, void *payload);

/** How advlock_session_open() opens a session; fill it with
    advlock_session_options_init() or ADVLOCK_SESSION_OPTIONS_INIT. */
typedef struct advlock_session_options {
    unsigned int version; /**< ADVLOCK_SESSION_OPTIONS_VERSION */
    /** Shown in pg_stat_activity. NULL: the URL's or PGAPPNAME's, else "advlock". */
    const char *application_name;
    /** ADVLOCK_SESSION_* bits; 0 by default. */
    unsigned flags;
    /** The watchdog sends a heartbeat after heartbeat_interval_ms without a
       round trip and declares the session lost when no answer arrives within
       heartbeat_deadline_ms. 0 means the default (2000 and 3000 ms); each may
       be 10 to 3600000 ms. The server is told to free a silent client's locks
       only after heartbeat_interval_ms + heartbeat_deadline_ms + stop_grace_ms
       + 3 s (rounded up to seconds; 18 s by default), so the client always
       lets go, and has stopped its work, first. */
    int32_t heartbeat_interval_ms;
    int32_t heartbeat_deadline_ms; /**< see heartbeat_interval_ms */
    /** NULL: no callback (advlock_session_check still reports the loss). */
    advlock_lost_callback on_lost;
    void *on_lost_payload; /**< passed to on_lost */
    /** Version 2: how long, after the loss is reported, the holder may still
       be doing work under the lock (advlock run: its --kill-grace, the time
       between SIGTERM and SIGKILL). The server waits that much longer before
       freeing a silent client's locks. 0 means the default, 10000 ms; at most
       3600000. A holder that stops at once loses nothing by leaving it. */
    int32_t stop_grace_ms;
} advlock_session_options;

/** Accept a hot standby or a read-only server. Locks there exclude only
   sessions on that same server, never jobs on the primary. Without it:
   ADVLOCK_ESTANDBY / ADVLOCK_EREADONLY. */
#define ADVLOCK_SESSION_ALLOW_STANDBY 0x1u
/** Accept a connection pooler between client and server (safe only for
   PgBouncer in session mode). Without it: ADVLOCK_EPOOLER. */
#define ADVLOCK_SESSION_ALLOW_POOLER 0x2u

/** The defaults, for `advlock_session_options opts = ADVLOCK_SESSION_OPTIONS_INIT;`. */
#define ADVLOCK_SESSION_OPTIONS_INIT {ADVLOCK_SESSION_OPTIONS_VERSION, NULL, 0u, 0, 0, NULL, NULL, 0}

/** Fill opts with defaults for the given version (pass
   ADVLOCK_SESSION_OPTIONS_VERSION). */
ADVLOCK_API advlock_status advlock_session_options_init(advlock_session_options *opts,
                                                        unsigned int version);

/**
 * Open a session from a postgresql:// URL or a libpq conninfo string ("" uses
 * the PG* environment variables, .pgpass and service files as libpq does).
 * opts may be NULL for the defaults. The URL's own settings win over advlock's
 * defaults, which are: target_session_attrs=read-write when several hosts are
 * listed (the writable one is used), application_name "advlock", a 10 s
 * connect timeout per listed host (one attempt each; a wrong password is one
 * failed login), client TCP keepalives and tcp_user_timeout, and server-side
 * keepalives, tcp_user_timeout and client_connection_check_interval so that the
 * server drops a vanished holder within seconds. The session turns off what a
 * role or database setting could do to it: statement_timeout, lock_timeout,
 * idle_session_timeout, idle_in_transaction_session_timeout,
 * transaction_timeout are 0, search_path is pg_catalog (every name advlock
 * sends is schema-qualified too), and a default_transaction_read_only set on
 * the role or database is turned off. Notices the server sends, also while
 * connecting, never reach stderr.
 *
 * Errors: ADVLOCK_ECONNECT (unreachable, authentication...), and unless opts
 * allow them ADVLOCK_ESTANDBY, ADVLOCK_EREADONLY, ADVLOCK_EPOOLER. Messages
 * never contain the password. A role whose EXECUTE on the advisory-lock
 * functions was revoked still opens a session, to list holders; its lock calls
 * are ADVLOCK_EPERMISSION (SQLSTATE 42501) with the GRANT that would allow them.
 *
 * "local", "local:/dir" or "file:/dir" open the host-local backend instead:
 * flock(2) on one file per key in a lock directory (default /run/lock/advlock,
 * shared by every user of the host), for jobs that only need to exclude each
 * other on one host. Its waits poll every 10 ms; it cannot hold one key in both
 * modes (ADVLOCK_EUNSUPPORTED). Lock files are opened relative to the
 * directory, never through a symbolic link, only if they are regular files;
 * advlock never changes the mode of a file or directory it did not make, and
 * never deletes a lock file. The directory and those above it must be owned by
 * root or the caller and not writable by others (unless a root-owned sticky
 * directory, as /tmp), else ADVLOCK_EUNSAFEDIR; "?group=NAME" (local:/dir?group=
 * batch) trusts one group instead: the directory must have that group and no
 * access for others, and is made mode 3770 when missing. A lock file another
 * user made unreadable is ADVLOCK_EPERMISSION, naming its owner. A lock is lost
 * when its file (or the directory) is removed or replaced: the watchdog sees it
 * within 20 ms (inotify, once a lock is held 200 ms; every heartbeat interval
 * at the latest), and the lost callback fires.
 *
 * "mysql://USER:PASSWORD@HOST:PORT/DB" or "mariadb://..." open a MySQL or
 * MariaDB session on GET_LOCK user locks, over MariaDB Connector/C with
 * automatic reconnection off. URL parameters: scope=PREFIX (lock names become
 * "PREFIX:name": MySQL lock names are server-wide), socket=PATH,
 * connect_timeout=SECONDS (10), allow_cluster=true (accept a Galera node:
 * otherwise ADVLOCK_ECLUSTER), application_name=TEXT. ADVLOCK_SESSION_ALLOW_STANDBY accepts a
 * read-only server (ADVLOCK_EREADONLY otherwise). Names are used as they are,
 * 1-64 characters counting the scope (longer: ADVLOCK_EKEY); keys become
 * "advlock:K1:K2" / "advlock:N". MariaDB compares lock names case-sensitively,
 * MySQL ignoring case: do not tell locks apart by case alone. No shared mode
 * and no run ledger (ADVLOCK_EUNSUPPORTED). The server ends an idle lock
 * connection after its silence limit (wait_timeout: heartbeat + stop grace + 3 s,
 * 18 s by default), freeing its locks; the watchdog's
 * heartbeat keeps a live one from idling.
 */
ADVLOCK_API advlock_status advlock_session_open(advlock_session **out, const char *url,
                                                const advlock_session_options *opts);

/**
 * End the session: cancel every wait in progress on it (server waits, and
 * waits for another handle of the session), let the calls in progress on
 * other threads return, then close the connection, which releases every lock
 * of the session on the server. Safe from any thread, at any time, and more
 * than once (later calls do nothing); a session whose locks were lost may be
 * closed too. Afterwards every call on the session and its locks returns
 * ADVLOCK_EMISUSE (advlock_session_wait_lost too, at once), except three that
 * only tell about the session: advlock_session_cancel (nothing is left to
 * end: ADVLOCK_OK, so an interrupt racing a close is harmless),
 * advlock_session_server_id (the id it had) and advlock_session_loss_fd
 * (readable from then on). The handle stays valid until advlock_session_free.
 * Accepts NULL.
 */
ADVLOCK_API void advlock_session_close(advlock_session *session);

/** Close the session if still open and free the handle. The last use of the
   handle: no other thread may be using it or start to. Lock handles keep
   what they need, so they may be freed later. Accepts NULL. */
ADVLOCK_API void advlock_session_free(advlock_session *session);

/**
 * Try to take a lock without waiting. ADVLOCK_OK and a new handle in *out,
 * or ADVLOCK_NOT_ACQUIRED with *out = NULL when another session holds it, or
 * another owner on this session.
 *
 * One lock, one owner. Every handle is an owner, as every session is on the
 * server: two handles never both hold a key exclusively, nor one exclusively
 * and one shared, even on one session and one thread (threads sharing a
 * session exclude each other). A conflicting second acquisition on the same
 * session is ADVLOCK_NOT_ACQUIRED for a try; a wait waits in the process, with
 * the same timeout and cancellation as a wait on the server, then waits on the
 * server for other sessions. A thread that would wait for a handle it holds
 * itself gets ADVLOCK_EDEADLOCK at once (the wait could never end): release
 * that handle first, or take both reentrant (advlock_session_acquire). Shared
 * handles never conflict with each other. Each handle releases once.
 */
ADVLOCK_API advlock_status advlock_session_try_lock(advlock_lock **out, advlock_session *session,
                                                    const advlock_target *target, advlock_mode mode);

/**
 * Release the lock now. A second release, or a release after the session was
 * closed, is ADVLOCK_EMISUSE. ADVLOCK_ELOST when the session's locks were lost
 * (the watchdog found out, or the server says the session did not hold this
 * one any more): the work done under the lock may have overlapped another
 * holder. Either way the handle counts as released afterwards.
 */
ADVLOCK_API advlock_status advlock_lock_release(advlock_lock *lock);

/** Free the handle, and release the lock if still held. Never blocks: the
   release is handed to the session's own thread, which runs it as soon as
   the connection is free (another thread's wait may hold it), so this is safe
   in a garbage collector's finalizer. Errors are dropped: call
   advlock_lock_release first to see them. Accepts NULL. */
ADVLOCK_API void advlock_lock_free(advlock_lock *lock);

/** A timeout meaning "wait as long as it takes". */
#define ADVLOCK_WAIT_FOREVER (-1)

/** The longest timeout_ms a wait accepts, on every backend: 2147483647 ms
   (about 24.8 days), PostgreSQL's lock_timeout being an int of
   milliseconds. Larger values are ADVLOCK_EINVAL. */
#define ADVLOCK_WAIT_MAX_MS INT64_C(2147483647)

/**
 * Take a lock, waiting on the server (lock_timeout + pg_advisory_lock: no
 * polling) for up to timeout_ms milliseconds; ADVLOCK_WAIT_FOREVER waits
 * without limit and 0 does not wait at all. Returns ADVLOCK_OK with a handle,
 * ADVLOCK_NOT_ACQUIRED when the time ran out, ADVLOCK_ECANCELED when
 * advlock_session_cancel() interrupted the wait, ADVLOCK_EDEADLOCK when the
 * server found a deadlock, the calling thread holds the lock through another
 * handle (see advlock_session_try_lock), or threads of this session would wait
 * for each other in a cycle. After any failed wait, a lock the
 * server granted at the last moment is released again: a failed wait never
 * leaves a lock behind. The session is busy (other calls on it block) while it
 * waits on the server; waiting for another handle of the session keeps it free.
 */
ADVLOCK_API advlock_status advlock_session_lock(advlock_lock **out, advlock_session *session,
                                                const advlock_target *target, advlock_mode mode,
                                                int64_t timeout_ms);

/** Interrupt every advlock_session_lock() wait in progress on the session (all
   threads' waits). Safe from any thread; does nothing when no wait is in
   progress. To end one thread's wait only, give it a cancel token. */
ADVLOCK_API advlock_status advlock_session_cancel(advlock_session *session);

/**
 * A cancel token ends the waits it is given, and only those: one thread's
 * interruption (Java's Thread.interrupt, Ruby's Ctrl-C) ends that thread's
 * wait while other threads waiting on the same session go on. Cancelling is
 * sticky: a wait that starts with an already cancelled token ends at once with
 * ADVLOCK_ECANCELED, so an interruption just before the wait is not lost. One
 * token per wait is the simple use; tokens are cheap.
 */
typedef struct advlock_cancel_token advlock_cancel_token;

/** A new token, not cancelled; freed with advlock_cancel_token_free. */
ADVLOCK_API advlock_status advlock_cancel_token_new(advlock_cancel_token **out);
/** Safe from any thread, at any time, also twice. */
ADVLOCK_API advlock_status advlock_cancel_token_cancel(advlock_cancel_token *token);
/** Accepts NULL. Not while a wait that was given the token is still running. */
ADVLOCK_API void advlock_cancel_token_free(advlock_cancel_token *token);

/** The version of advlock_lock_options this header describes (2 added slots;
    a library also takes version 1 structs, which end before slots). */
#define ADVLOCK_LOCK_OPTIONS_VERSION 2

/** How advlock_session_acquire() takes a lock; fill it with
    advlock_lock_options_init() or ADVLOCK_LOCK_OPTIONS_INIT. */
typedef struct advlock_lock_options {
    unsigned int version; /**< ADVLOCK_LOCK_OPTIONS_VERSION */
    /** How long to wait: 0 (the default) does not wait, as a try;
       ADVLOCK_WAIT_FOREVER; at most ADVLOCK_WAIT_MAX_MS. */
    int64_t timeout_ms;
    unsigned flags; /**< ADVLOCK_LOCK_* bits; 0 by default */
    /** NULL: the wait ends only by its timeout or advlock_session_cancel. */
    advlock_cancel_token *cancel;
    /** Who is calling, for runtimes whose threads are not OS threads (a Java
       virtual thread moves between OS threads, and several share one; green
       threads, tasks): a nonzero id of the binding's, the same for every
       call of one such thread and never reused while its locks live. It
       stands for "the calling thread" in reentrant grouping and in the
       ADVLOCK_EDEADLOCK checks. 0 (the default): the calling OS thread. */
    uint64_t owner_id;
    /** Job slots, "at most N at once": 0 (the default) takes the lock
       itself; N (1..ADVLOCK_SLOTS_MAX) takes any one free slot of N, each
       slot a lock of its own whose key advlock_key_slot() derives from the
       target's key (so 1 is slot 1, shared with holders that count more). A try tries every slot, in order 1..N; a wait waits for
       the first to free (see @ref slots). Exclusive mode only. */
    unsigned slots;
} advlock_lock_options;

/** Without it (the default) the handle is its own owner (see
   advlock_session_try_lock). With it, the calling thread's reentrant handles
   on this session are one owner, as with a PostgreSQL session of its own: they
   never conflict with each other, so the thread may take a lock again (each
   handle still releases once), and shared then exclusive is granted when no
   other owner holds the key. They conflict with every other handle,
   non-reentrant ones of the same thread included. */
#define ADVLOCK_LOCK_REENTRANT 0x1u

/** Issue a fencing token with the grant (see @ref fencing): PostgreSQL only
   (ADVLOCK_EUNSUPPORTED elsewhere), exclusive mode, not with
   ADVLOCK_LOCK_REENTRANT (a second acquisition would fence out the first). */
#define ADVLOCK_LOCK_FENCED 0x2u

/** The defaults (a try), for `advlock_lock_options opts = ADVLOCK_LOCK_OPTIONS_INIT;`. */
#define ADVLOCK_LOCK_OPTIONS_INIT {ADVLOCK_LOCK_OPTIONS_VERSION, 0, 0u, NULL, 0, 0u}

/** Fill opts with defaults for the given version (pass ADVLOCK_LOCK_OPTIONS_VERSION). */
ADVLOCK_API advlock_status advlock_lock_options_init(advlock_lock_options *opts, unsigned int version);

/** Take a lock as advlock_session_lock does, with options (NULL: the
   defaults, a try). The outcomes are advlock_session_lock's; with slots,
   ADVLOCK_NOT_ACQUIRED means every slot was held (and stayed held until the
   timeout). */
ADVLOCK_API advlock_status advlock_session_acquire(advlock_lock **out, advlock_session *session,
                                                   const advlock_target *target, advlock_mode mode,
                                                   const advlock_lock_options *opts);

/**
 * Take a set of locks all or nothing (a job that needs "daily_sales" and
 * "inventory" at once): ADVLOCK_OK and a handle for each target, out[i] for
 * targets[i]; or ADVLOCK_NOT_ACQUIRED (or an error) with every out[i] NULL
 * and none of the locks held. out has room for count handles; each handle
 * releases once, by itself or with advlock_lock_release_all.
 *
 * A try (opts->timeout_ms 0) tries every lock and keeps them only if all were
 * granted. A wait waits until all are granted at once, as
 * advlock_session_lock waits for one (same timeout, cancellation, outcomes).
 * Every set is taken in one order, ascending by key (bigint keys by value,
 * then pairs by k1, k2; on MySQL by lock name), whatever order the targets
 * come in, so two jobs waiting for overlapping sets never deadlock each
 * other. (A job that also takes single locks while holding a set must keep
 * to that order itself.) On PostgreSQL a try, a granted wait, and a release
 * of the set each cost one round trip whatever count is; the other backends
 * take the locks one by one, in that order.
 *
 * The targets must be distinct locks (the same key twice, or a name and its
 * key, is ADVLOCK_EINVAL), count at least 1, opts as advlock_session_acquire
 * takes them (NULL: a try), without slots or ADVLOCK_LOCK_FENCED.
 */
ADVLOCK_API advlock_status advlock_session_acquire_all(advlock_lock **out, advlock_session *session,
                                                       const advlock_target *targets, size_t count,
                                                       advlock_mode mode, const advlock_lock_options *opts);

/** Release count locks of one session, held in one mode (a set, or any
   locks), in one round trip on PostgreSQL. The outcomes are
   advlock_lock_release's; a lock in the array twice, one already released,
   or one on another session is ADVLOCK_EMISUSE / ADVLOCK_EINVAL for the
   whole call, which then releases none. The handles stay to be freed. */
ADVLOCK_API advlock_status advlock_lock_release_all(advlock_lock *const *locks, size_t count);

/** The key the lock holds on the server: the target's key, or for a slot
   lock the slot's key (advlock_key_slot). Valid also after release. */
ADVLOCK_API advlock_status advlock_lock_key(advlock_key *out, const advlock_lock *lock);

/** The slot the lock holds, 1..N, or 0 for a lock taken without slots. */
ADVLOCK_API advlock_status advlock_lock_slot(unsigned *out, const advlock_lock *lock);

/** The fencing token issued with the lock's grant (ADVLOCK_LOCK_FENCED);
   ADVLOCK_EMISUSE when it was taken without one. Valid also after release,
   when checking it can only fail. */
ADVLOCK_API advlock_status advlock_lock_fence_token(int64_t *out, const advlock_lock *lock);

/** @} */

/* ------------------------------------------------------------------------ */
/* Knowing the locks are still held                                          */
/* ------------------------------------------------------------------------ */
/**
 * @defgroup loss Knowing the locks are still held
 * Each session has a watchdog thread. Without any call from you it notices
 * within milliseconds when the server ends the session (terminate, shutdown,
 * idle timeouts, a crash of another backend) and within heartbeat interval +
 * deadline when the network goes silent; also a server restart, a backend
 * swapped behind a pooler, and every lock released behind advlock's back
 * (DISCARD ALL, pg_advisory_unlock_all). Then the session is LOST: the lost
 * callback fires once, and every later call on the session or its locks
 * returns ADVLOCK_ELOST. advlock never reconnects and re-takes a lock by
 * itself: a new lock needs a new session.
 * @{
 */

/** Set or replace the lost callback (see advlock_lost_callback). If the loss
   already happened and no callback fired yet, it fires now on this thread.
   payload must stay valid until the session is closed: the watchdog may call
   the callback at any moment before that. */
ADVLOCK_API advlock_status advlock_session_set_lost_callback(advlock_session *session,
                                                             advlock_lost_callback on_lost,
                                                             void *payload);

/** No round trip: ADVLOCK_OK while no loss is known, ADVLOCK_ELOST after one,
   ADVLOCK_EMISUSE after close. Cheap enough to call in every loop of a job. */
ADVLOCK_API advlock_status advlock_session_check(const advlock_session *session);

/** Block until the session's locks are lost (ADVLOCK_ELOST, and the last error
   says why), the session is closed (ADVLOCK_EMISUSE), or timeout_ms passes
   (ADVLOCK_OK: nothing known lost; ADVLOCK_WAIT_FOREVER waits without limit,
   0 answers at once as advlock_session_check). Holds no connection while it
   waits: a thread of a binding's own may wait here to tell its listeners,
   so that nothing calls into a language runtime from advlock's threads. */
ADVLOCK_API advlock_status advlock_session_wait_lost(advlock_session *session, int64_t timeout_ms);

/** A file descriptor that becomes readable once the session's locks are lost
   or the session is closed, and then stays readable: wait for it with poll,
   select, epoll, asyncio's add_reader or Ruby's IO.select, then call
   advlock_session_check. Never read from it or close it; it stays open until
   the session and its locks are all freed. Close-on-exec. */
ADVLOCK_API advlock_status advlock_session_loss_fd(int *out, advlock_session *session);

/** One round trip whose cost does not grow with the locks on the server:
   proves the session is still the one that took its locks. */
ADVLOCK_API advlock_status advlock_session_verify(advlock_session *session);

/** As advlock_session_check, for one lock: also ADVLOCK_EMISUSE once released. */
ADVLOCK_API advlock_status advlock_lock_check(const advlock_lock *lock);

/** As advlock_session_verify; with ADVLOCK_VERIFY_STRICT it also asks the
   server's lock table (pg_locks) whether this session holds this key in this
   mode, which costs more when the server holds many locks. */
ADVLOCK_API advlock_status advlock_lock_verify(advlock_lock *lock, unsigned flags);

/** A flag of advlock_lock_verify(): also ask the server's lock table. */
#define ADVLOCK_VERIFY_STRICT 0x1u

/** @} */

/* ------------------------------------------------------------------------ */
/* Run ledger: "once per period", not only "not twice at once"               */
/* ------------------------------------------------------------------------ */
/**
 * @defgroup ledger Run ledger: "once per period", not only "not twice at once"
 * A table (advlock_sql_ledger prints its CREATE TABLE) recording that a job
 * completed in a period: "hour", "day", "week" or "month", truncated in the
 * session's TimeZone. Use it on the session that holds the job's lock, so two
 * hosts cannot both find the period empty. A missing table is
 * ADVLOCK_EUNSUPPORTED with how to create it; so is the local backend.
 * @{
 */

/** *out: when the job completed in the current period (unix microseconds), or 0. */
ADVLOCK_API advlock_status advlock_session_ledger_completed(int64_t *out, advlock_session *session,
                                                            const char *job, const char *period);
/** Record that the job completed in the current period (host may be NULL). */
ADVLOCK_API advlock_status advlock_session_ledger_record(advlock_session *session, const char *job,
                                                         const char *period, const char *host);
/** The ledger's CREATE TABLE statement; *out is released with advlock_free. */
ADVLOCK_API advlock_status advlock_sql_ledger(char **out);

/** The server's id for the session: pg_backend_pid() on PostgreSQL, the 64-bit
   CONNECTION_ID() on MySQL/MariaDB, the process id for the local backend. */
ADVLOCK_API advlock_status advlock_session_server_id(int64_t *out, const advlock_session *session);

/** @} */

/* ------------------------------------------------------------------------ */
/* Holders: who holds or waits for which lock                                */
/* ------------------------------------------------------------------------ */
/** @defgroup holders Holders: who holds or waits for which lock
 * @{ */

/** One row of pg_locks for an advisory lock, with what pg_stat_activity tells
   about its session. Owned by its advlock_holders list; fields may be appended. */
typedef struct advlock_holder {
    /** The lock: on MySQL a name lock's target has its name. */
    advlock_target target;
    const char *lock_name; /**< the registry's name for the key, or NULL; on MySQL,
                              else the lock's name on the server (scope left out,
                              "advlock:K1:K2" for a key) */
    advlock_mode mode; /**< the mode held or waited for */
    unsigned flags;        /**< ADVLOCK_HOLDER_* bits */
    int64_t server_id;     /**< the holder's advlock_session_server_id; 0 for a
                              prepared transaction */
    /** NULL when the server hides them from this role (details_hidden), and
       client_addr also for clients on a Unix socket. */
    const char *user;
    const char *application_name; /**< the holder's application_name; NULL when hidden */
    const char *client_addr; /**< its client's address; NULL when hidden or on a Unix socket */
    const char *client_hostname; /**< its client's host name; NULL when hidden or unknown */
    int64_t backend_start_unix_us; /**< the holder's connection start; 0 when hidden */
    int64_t wait_start_unix_us;    /**< for waiters on PostgreSQL 14+; 0 otherwise */
} advlock_holder;

#define ADVLOCK_HOLDER_GRANTED 0x1u        /**< holds the lock; else waits for it */
#define ADVLOCK_HOLDER_SELF 0x2u           /**< the session that asked */
#define ADVLOCK_HOLDER_DETAILS_HIDDEN 0x4u /**< grant pg_read_all_stats (pg_monitor) to see more */

/** A list of holders and waiters (opaque), from advlock_session_holders(). */
typedef struct advlock_holders advlock_holders;

/**
 * List the holders of and waiters for advisory locks in the session's
 * database, read from pg_locks and pg_stat_activity: never by taking a lock.
 * registry (may be NULL) names the keys it knows; only (may be NULL)
 * restricts the list to one lock.
 */
ADVLOCK_API advlock_status advlock_session_holders(advlock_holders **out, advlock_session *session,
                                                   const advlock_registry *registry,
                                                   const advlock_target *only);
/** What the server could not show, or NULL when the list is complete (always
   NULL on PostgreSQL). MariaDB lists no waiters, and without its
   metadata_lock_info plugin only the registry's locks and the asked one.
   Valid until advlock_holders_free. */
ADVLOCK_API const char *advlock_holders_note(const advlock_holders *holders);
/** The number of rows. */
ADVLOCK_API size_t advlock_holders_count(const advlock_holders *holders);
/** The index-th row, or NULL when out of range; valid until advlock_holders_free. */
ADVLOCK_API const advlock_holder *advlock_holders_at(const advlock_holders *holders, size_t index);
/** Free the list and its rows. Accepts NULL. */
ADVLOCK_API void advlock_holders_free(advlock_holders *holders);

/** @} */

/* ------------------------------------------------------------------------ */
/* Transaction-scoped locks on your own connection                           */
/* ------------------------------------------------------------------------ */
/**
 * @defgroup xact Transaction-scoped locks on your own connection
 * The lock joins the caller's transaction on the caller's own libpq connection
 * and ends with it (COMMIT or ROLLBACK): the work and the lock cannot part
 * ways. conn must be inside a transaction block (after BEGIN); otherwise
 * ADVLOCK_EMISUSE, because the lock would end with the statement.
 * @{
 */

struct pg_conn; /* libpq's PGconn */

/** ADVLOCK_OK: held until the transaction ends; ADVLOCK_NOT_ACQUIRED: held elsewhere. */
ADVLOCK_API advlock_status advlock_xact_try_lock(struct pg_conn *conn, const advlock_key *key,
                                                 advlock_mode mode);

/** Wait up to timeout_ms (ADVLOCK_WAIT_FOREVER, or 0 to try) inside a savepoint:
   on ADVLOCK_NOT_ACQUIRED the transaction is still usable, and the
   transaction's lock_timeout is left as it was. */
ADVLOCK_API advlock_status advlock_xact_lock(struct pg_conn *conn, const advlock_key *key,
                                             advlock_mode mode, int64_t timeout_ms);

/** @} */

/* ------------------------------------------------------------------------ */
/* Job slots: at most N holders at once                                      */
/* ------------------------------------------------------------------------ */
/**
 * @defgroup slots Job slots: at most N holders at once
 * "At most 3 exports at once, on any host": a lock taken with N slots
 * (advlock_lock_options.slots) holds one of N ordinary locks, slot 1..N, whose
 * keys are derived from the lock's key by a frozen rule, so every language,
 * the command and psql agree on them:
 * @code{.sql}
 *   -- slot S (1..N) of the lock whose canonical key text (advlock_key_format) is K:
 *   ('x' || left(encode(sha256(convert_to('advlock-slot:' || K || '/' || S, 'UTF8')), 'hex'), 16))::bit(64)::bigint
 * @endcode
 * A bigint key, whatever the key's own space; N is not part of it, so holders
 * that disagree about N share the lower slots and at most the larger N run.
 * On MySQL/MariaDB a slot is the key-only lock "advlock:<slot key>". A try
 * tries the slots in order; a wait tries them all, then waits on the server
 * for one slot at a time in turn, in slices of ADVLOCK_SLOT_WAIT_SLICE_MS,
 * trying all again between slices: a slot that frees is taken within one
 * slice (at once when it is the slot being waited on). Loss detection is the
 * session's, as for any lock.
 * @{
 */

/** The most slots a lock may have. */
#define ADVLOCK_SLOTS_MAX 64u

/** How long a wait for a free slot waits on the server for one slot before
    trying every slot again. */
#define ADVLOCK_SLOT_WAIT_SLICE_MS 100

/** The key of slot `slot` (1..ADVLOCK_SLOTS_MAX) of the lock with key `key`:
   the rule above. */
ADVLOCK_API advlock_status advlock_key_slot(advlock_key *out, const advlock_key *key, unsigned slot);

/** @} */

/* ------------------------------------------------------------------------ */
/* Fencing tokens: a lost lock cannot commit work                            */
/* ------------------------------------------------------------------------ */
/**
 * @defgroup fencing Fencing tokens: a lost lock cannot commit work
 * A session lock can be lost (the server ended the session, restarted, failed
 * over) and the next holder can start before the old one hears of it. For
 * work that lands in the same PostgreSQL database, a fencing token closes
 * that window: taken with ADVLOCK_LOCK_FENCED, each grant issues the lock's
 * next token, a 64-bit number greater than every earlier one for that key,
 * incremented in the table public.advlock_fence while the lock is held (in
 * the lock's own round trip). The job then runs advlock_fence_check (or its
 * SQL, advlock_fence_check_sql) inside its own data transaction, before
 * committing: it fails with ADVLOCK_EFENCED when a newer token was issued,
 * and otherwise holds a row lock until the transaction ends, so the next
 * holder's increment waits for that commit. Committed work of an old holder
 * and of the new one therefore never overlap. advlock_sql_fence prints the
 * table and functions to create once per database (`advlock sql fence`).
 * While an old holder's checked transaction is still open, the next holder's
 * try gives ADVLOCK_NOT_ACQUIRED and a wait waits for it (within its timeout).
 * @{
 */

/** The statements that create public.advlock_fence and its functions
   (idempotent); *out is released with advlock_free. */
ADVLOCK_API advlock_status advlock_sql_fence(char **out);

/** Check a token on the caller's own libpq connection, which must be inside
   the job's transaction (else ADVLOCK_EMISUSE: the row lock would end with
   the statement). ADVLOCK_OK: the token is still the lock's latest, and no
   newer one can be issued before the transaction ends; ADVLOCK_EFENCED: a
   newer holder took the lock (roll back); ADVLOCK_EUNSUPPORTED: the fence
   table is missing. */
ADVLOCK_API advlock_status advlock_fence_check(struct pg_conn *conn, const advlock_key *key, int64_t token);

/** The check as one statement for any driver, e.g.
   "SELECT public.advlock_fence_check('100:1', 7)"; run it inside the job's
   transaction and map a failure's SQLSTATE with advlock_status_from_sqlstate
   (55T01 is ADVLOCK_EFENCED). *out is released with advlock_free. */
ADVLOCK_API advlock_status advlock_fence_check_sql(char **out, const advlock_key *key, int64_t token);

/** @} */

/* ------------------------------------------------------------------------ */
/* SQL for other drivers (JDBC, ActiveRecord, psycopg...)                    */
/* ------------------------------------------------------------------------ */
/** @defgroup sql SQL for other drivers (JDBC, ActiveRecord, psycopg...)
 * @{ */

/** Which statement advlock_sql() writes. */
typedef enum advlock_sql_kind {
    ADVLOCK_SQL_TRY_LOCK = 0,      /**< boolean: t acquired, f held elsewhere */
    ADVLOCK_SQL_LOCK = 1,          /**< waits; bound it with SET LOCAL lock_timeout */
    ADVLOCK_SQL_UNLOCK = 2,        /**< boolean: f means the lock had been lost */
    ADVLOCK_SQL_TRY_XACT_LOCK = 3, /**< boolean; run inside the transaction */
    ADVLOCK_SQL_XACT_LOCK = 4,     /**< waits; run inside the transaction */
    ADVLOCK_SQL_KIND_INT32_ = 0x7FFFFFFF /**< not a kind: keeps the enum 32 bits wide */
} advlock_sql_kind;

/** Buffer size that always holds advlock_sql()'s text and its NUL. */
#define ADVLOCK_SQL_TEXT_SIZE 128

/** The statement for a key and mode, e.g. "SELECT pg_try_advisory_xact_lock(100, 1)". */
ADVLOCK_API advlock_status advlock_sql(char *out, size_t out_size, advlock_sql_kind kind,
                                       const advlock_key *key, advlock_mode mode);

/**
 * A timed wait for a transaction-scoped lock through another driver, the
 * sequence advlock_xact_lock runs on a PGconn, one statement a step. Inside
 * the caller's transaction run, in this order:
 *   ADVLOCK_XACT_WAIT_SAVEPOINT;
 *   ADVLOCK_XACT_WAIT_SET_TIMEOUT, which answers one row whose first column
 *     (text) is the transaction's lock_timeout: keep it;
 *   ADVLOCK_XACT_WAIT_LOCK, the wait (timeout_ms: ADVLOCK_WAIT_FOREVER waits
 *     whatever the transaction's own lock_timeout is; 0 is ADVLOCK_EINVAL for
 *     SET_TIMEOUT, since lock_timeout 0 means no limit: a zero wait is a try,
 *     ADVLOCK_SQL_TRY_XACT_LOCK).
 * When both succeeded the lock is held: run ADVLOCK_XACT_WAIT_RESTORE_TIMEOUT
 * (saved_lock_timeout: the kept value) and ADVLOCK_XACT_WAIT_RELEASE. When
 * either failed run ADVLOCK_XACT_WAIT_ROLLBACK then ADVLOCK_XACT_WAIT_RELEASE,
 * which drops a lock granted in a race with the timeout and leaves the
 * transaction usable, and take advlock_status_from_sqlstate of the failure:
 * ADVLOCK_NOT_ACQUIRED when the time ran out. saved_lock_timeout is read by
 * RESTORE_TIMEOUT only (else may be NULL). *out is released with advlock_free.
 */
typedef enum advlock_xact_wait_step {
    ADVLOCK_XACT_WAIT_SAVEPOINT = 0,
    ADVLOCK_XACT_WAIT_SET_TIMEOUT = 1,
    ADVLOCK_XACT_WAIT_LOCK = 2,
    ADVLOCK_XACT_WAIT_RESTORE_TIMEOUT = 3,
    ADVLOCK_XACT_WAIT_RELEASE = 4,
    ADVLOCK_XACT_WAIT_ROLLBACK = 5,
    ADVLOCK_XACT_WAIT_STEP_INT32_ = 0x7FFFFFFF /**< not a step: keeps the enum 32 bits wide */
} advlock_xact_wait_step;

/** The statement of one step of the timed wait above, for a key and mode. */
ADVLOCK_API advlock_status advlock_xact_wait_sql(char **out, advlock_xact_wait_step step, const advlock_key *key,
                                                 advlock_mode mode, int64_t timeout_ms,
                                                 const char *saved_lock_timeout);

/** What a server error with this SQLSTATE means, as advlock's own sessions map
   it, for errors another driver reports: ADVLOCK_NOT_ACQUIRED (55P03, a
   lock_timeout ran out), ADVLOCK_EDEADLOCK (40P01), ADVLOCK_EPERMISSION (42501),
   ADVLOCK_ECANCELED (57014), ADVLOCK_ECAPACITY (53200), ADVLOCK_ECONNECT
   (class 08), ADVLOCK_EFENCED (55T01, advlock_fence_check's), ADVLOCK_ESERVER
   for any other, and for NULL. */
ADVLOCK_API advlock_status advlock_status_from_sqlstate(const char *sqlstate);

/** Release a string advlock allocated for the caller. Accepts NULL. */
ADVLOCK_API void advlock_free(void *pointer);

/** text_len bytes of text (ADVLOCK_NUL_TERMINATED allowed) made safe to print
   on a terminal: at most max_bytes of it, followed by "..." when cut (never
   inside a character); control characters and bytes that are not UTF-8 as
   `\xNN`, C1 controls and bidirectional overrides as `\u{XXXX}`. What advlock's
   own messages do with the input they quote, for text a program prints
   itself (lock names, holders' application and process names). *out is
   released with advlock_free. */
ADVLOCK_API advlock_status advlock_text_printable(char **out, const char *text, size_t text_len,
                                                  size_t max_bytes);

/** The psql expression computing the advlock key of a name (the name written
   as a string literal), e.g. for `SELECT <expr>;`. Same name rules as
   advlock_key_from_name. *out is released with advlock_free. */
ADVLOCK_API advlock_status advlock_key_name_sql(char **out, const char *name, size_t name_len);

/** REVOKE (flags 0) or GRANT (ADVLOCK_SQL_GRANT) EXECUTE statements for every
   advisory-lock function signature, one statement a line, naming role ("PUBLIC"
   for everyone; other names are quoted as identifiers, at most 63 bytes).
   *out is released with advlock_free. */
ADVLOCK_API advlock_status advlock_sql_privileges(char **out, const char *role, unsigned flags);

/** A flag of advlock_sql_privileges(): GRANT instead of REVOKE. */
#define ADVLOCK_SQL_GRANT 0x1u

/** What a boolean answer of that statement means: ADVLOCK_OK, ADVLOCK_NOT_ACQUIRED
   (a try that found the lock held), ADVLOCK_ELOST (an unlock that returned
   false), or ADVLOCK_EINVAL for kinds that return no boolean. */
ADVLOCK_API advlock_status advlock_sql_result(advlock_sql_kind kind, const advlock_key *key,
                                              int boolean_result);

/** @} */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ADVLOCK_H */
