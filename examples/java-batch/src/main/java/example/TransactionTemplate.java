package example;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * The shape of Spring's TransactionTemplate, without Spring: run a callback in
 * one transaction on one connection, commit if it returns, roll back if it
 * throws. With Spring, use Spring's own and get the connection with
 * DataSourceUtils.getConnection(dataSource) inside the callback.
 */
final class TransactionTemplate {
    interface Callback<T> {
        T doInTransaction(Connection connection) throws SQLException;
    }

    private final String jdbcUrl, user, password;

    TransactionTemplate(String jdbcUrl, String user, String password) {
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
    }

    <T> T execute(Callback<T> callback) throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl, user, password)) {
            connection.setAutoCommit(false);
            try {
                T result = callback.doInTransaction(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }
}
