/**
 * advlock: distributed mutual exclusion for batch jobs with database advisory
 * locks (PostgreSQL pg_advisory_lock, MySQL/MariaDB GET_LOCK) and local flock.
 * Start at {@link io.advlock.LockSession}; {@link io.advlock.TransactionLocks}
 * takes transaction-scoped locks on a JDBC connection.
 *
 * <p>Only {@code io.advlock} is exported: {@code io.advlock.internal} holds the
 * SWIG-generated JNI classes and the native loader, which are no API. The jar
 * loads native code (System.load): on Java 24 and later, run with
 * {@code --enable-native-access=io.advlock} on the module path.
 */
module io.advlock {
    // TransactionLocks takes a java.sql.Connection, so users of io.advlock read java.sql too.
    requires transitive java.sql;

    exports io.advlock;
}
