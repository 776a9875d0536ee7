package example.spring;

/** Where the database is, and how long daily_sales "works" (to let a second instance meet it). */
public record Settings(String jdbcUrl, String user, String password, long secondsOfWork) {}
