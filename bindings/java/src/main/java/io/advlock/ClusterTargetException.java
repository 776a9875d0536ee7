package io.advlock;

/**
 * A node of a multi-primary cluster (MySQL Galera), where a lock excludes only
 * sessions on that same node (opt in with allow_cluster=true in the URL).
 */
public class ClusterTargetException extends UnsafeTargetException {
    private static final long serialVersionUID = 1L;

    public ClusterTargetException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
