/**
 * @file advlock/status_table.h
 * @brief The one table of advlock's statuses.
 *
 * Everything that names a status is made from these lists: the library's
 * advlock_status_name() and advlock_status_at(), the core's exception classes,
 * advlock.hpp's exception classes. The bindings read the same table at load
 * time through advlock_status_at() (never restating the numbers): each maps
 * the @c kind to a class of its own (Python @c LockLost, Ruby
 * @c Advlock::LockLost, Java @c io.advlock.LockLostException) and a test in each
 * checks that every status has one.
 *
 * Columns of each X(...) row:
 *  - the status constant of advlock.h (its value is pinned there);
 *  - kind: the snake_case name of its outcome (advlock.hpp's exception class);
 *  - Kind: the same in CamelCase (the core's and the bindings' class name);
 *  - parent: the kind of the class it derives from (@c error,
 *    @c unsafe_target for targets where locks would exclude no one, or
 *    @c lock_lost for a kind of loss);
 *  - a one-line summary.
 *
 * Appending a status: add it to the enum in advlock.h and here, in both places
 * at the end of its group; the symbol and table tests fail until every binding
 * has its class.
 */
#ifndef ADVLOCK_STATUS_TABLE_H
#define ADVLOCK_STATUS_TABLE_H

/** Statuses that are not errors: a call that returns them did what it could. */
#define ADVLOCK_STATUS_OUTCOMES(X)                                                                 \
    X(ADVLOCK_OK, ok, Ok, none, "success")                                                         \
    X(ADVLOCK_NOT_ACQUIRED, not_acquired, NotAcquired, none,                                       \
      "the lock is held by another owner (a try), or the wait timed out")

/** Error statuses, each with the class it derives from. */
#define ADVLOCK_STATUS_ERRORS(X)                                                                   \
    X(ADVLOCK_ERROR, internal_error, InternalError, error,                                         \
      "an unexpected internal failure: a bug in advlock; please report it")                        \
    X(ADVLOCK_ENOMEM, out_of_memory, OutOfMemory, error, "memory could not be allocated")          \
    X(ADVLOCK_EINVAL, invalid_argument, InvalidArgument, error,                                    \
      "a bad argument: NULL where a value is required, an unknown enum value or flag, "            \
      "an options struct of an unknown version")                                                   \
    X(ADVLOCK_EKEY, bad_key, BadKey, error,                                                        \
      "a malformed key text, or a lock name that is empty, too long, not UTF-8 or contains NUL")   \
    X(ADVLOCK_EREGISTRY, registry_error, RegistryError, error,                                     \
      "a registry file is invalid; the message starts with file:line")                             \
    X(ADVLOCK_ENOTFOUND, not_found, NotFound, error, "no registry entry with that name or key")    \
    X(ADVLOCK_EIO, file_error, FileError, error, "a file could not be read")                       \
    X(ADVLOCK_EMISUSE, misuse, Misuse, error,                                                      \
      "the API was used out of order: release twice, use after close")                             \
    X(ADVLOCK_ECONNECT, connect_error, ConnectError, error,                                        \
      "the database could not be reached, or the connection failed")                               \
    X(ADVLOCK_ESTANDBY, standby_target, StandbyTarget, unsafe_target,                              \
      "a hot standby: its locks would exclude no one on the primary")                              \
    X(ADVLOCK_EREADONLY, read_only_target, ReadOnlyTarget, unsafe_target,                          \
      "a read-only server: its locks would exclude no one on the primary")                         \
    X(ADVLOCK_EPOOLER, pooler_target, PoolerTarget, unsafe_target,                                 \
      "a connection pooler between client and server")                                             \
    X(ADVLOCK_ELOST, lock_lost, LockLost, error,                                                   \
      "the lock was lost: the job must stop acting as the holder")                                 \
    X(ADVLOCK_ECANCELED, canceled, Canceled, error, "a wait was cancelled")                        \
    X(ADVLOCK_ECAPACITY, capacity_error, CapacityError, error,                                     \
      "the server's lock table is full (SQLSTATE 53200)")                                          \
    X(ADVLOCK_EDEADLOCK, deadlock, Deadlock, error,                                                \
      "a deadlock: the server found one (SQLSTATE 40P01), or a thread would wait for itself")      \
    X(ADVLOCK_EPERMISSION, permission_denied, PermissionDenied, error,                             \
      "the role may not call the advisory-lock functions (SQLSTATE 42501), or a lock file "        \
      "is another user's")                                                                         \
    X(ADVLOCK_ESERVER, server_error, ServerError, error,                                           \
      "any other server error; the SQLSTATE says which")                                           \
    X(ADVLOCK_EUNSUPPORTED, unsupported, Unsupported, error,                                       \
      "the backend or server cannot do what was asked")                                            \
    X(ADVLOCK_ECONFIG, config_error, ConfigError, error,                                           \
      "a configuration file is invalid; the message starts with file:line")                        \
    X(ADVLOCK_ECLUSTER, cluster_target, ClusterTarget, unsafe_target,                              \
      "a node of a multi-primary cluster: its locks exclude only sessions on that node")           \
    X(ADVLOCK_EUNSAFEDIR, unsafe_lock_directory, UnsafeLockDirectory, unsafe_target,               \
      "the local lock directory or a lock file in it could be replaced by another user")             \
    X(ADVLOCK_EFENCED, fenced_out, FencedOut, lock_lost,                                           \
      "a newer holder took the lock: the fencing token was superseded (SQLSTATE 55T01)")

/** Every status: the outcomes, then the errors. */
#define ADVLOCK_STATUS_TABLE(X) ADVLOCK_STATUS_OUTCOMES(X) ADVLOCK_STATUS_ERRORS(X)

#endif /* ADVLOCK_STATUS_TABLE_H */
