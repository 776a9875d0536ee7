package io.advlock;

/**
 * The host-local lock directory ({@code local}, {@code local:/dir}), or a lock
 * file in it, is one another user of the host could replace or redirect: it
 * belongs to someone else, others may write to it, or the lock file is a
 * symbolic link or not a regular file. The message says what to change.
 */
public class UnsafeLockDirectoryException extends UnsafeTargetException {
    private static final long serialVersionUID = 1L;

    public UnsafeLockDirectoryException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
