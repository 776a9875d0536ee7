package io.advlock;

import java.io.ByteArrayOutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What {@link LockSession#open(String, SessionOptions)} hands the core: the URL as given, with
 * {@link SessionOptions#user}/{@link SessionOptions#password} added, or a JDBC URL (what a Java
 * batch already has in its configuration) turned into the core's form. JDBC URLs are Java's own,
 * so reading them is the binding's job; everything after that is the core's.
 *
 * <p>The password travels inside the string the core parses (a quoted libpq value or a
 * percent-encoded URL part), which is where the core looks for the secrets it keeps out of its
 * messages. Messages from here name parameters and never quote a value or the URL: a
 * mistyped URL may carry a password anywhere.
 */
final class DatabaseUrl {
    private DatabaseUrl() {}

    private static final String PG_EXAMPLE = "jdbc:postgresql://HOST[:PORT][,HOST2[:PORT2]]/DB[?user=U&password=P]";
    private static final String MYSQL_EXAMPLE = "jdbc:mysql://HOST[:PORT]/DB[?user=U&password=P] (or jdbc:mariadb:)";

    // pgjdbc parameters that shape only statements or the driver itself, nothing of a
    // connection that holds locks (advlock runs its own statements and keepalives).
    private static final Set<String> PG_IGNORED = Set.of(
            "prepareThreshold", "preparedStatementCacheQueries", "preparedStatementCacheSizeMiB",
            "defaultRowFetchSize", "binaryTransfer", "binaryTransferEnable", "binaryTransferDisable",
            "reWriteBatchedInserts", "stringtype", "socketTimeout", "loginTimeout", "tcpKeepAlive",
            "loggerLevel", "loggerFile", "logUnclosedConnections", "autosave", "cleanupSavepoints",
            "currentSchema", "readOnly", "readOnlyMode", "assumeMinServerVersion", "preferQueryMode",
            "disableColumnSanitiser", "escapeSyntaxCallMode", "logServerErrorDetail",
            "quoteReturningIdentifiers", "receiveBufferSize", "sendBufferSize", "hideUnprivilegedObjects",
            "unknownLength", "allowEncodingChanges", "hostRecheckSeconds", "loadBalanceHosts",
            "cancelSignalTimeout", "databaseMetadataCacheFields", "databaseMetadataCacheFieldsMiB",
            "groupStartupParameters", "maxResultBuffer", "adaptiveFetch", "adaptiveFetchMinimum",
            "adaptiveFetchMaximum", "tcpNoDelay");
    // pgjdbc's name → libpq's, for those that mean the same.
    private static final Map<String, String> PG_MAPPED = Map.of(
            "user", "user", "password", "password", "ApplicationName", "application_name",
            "sslmode", "sslmode", "sslcert", "sslcert", "sslkey", "sslkey", "sslrootcert", "sslrootcert",
            "sslpassword", "sslpassword", "options", "options");
    private static final Set<String> MYSQL_IGNORED = Set.of(
            "serverTimezone", "connectionTimeZone", "characterEncoding", "useUnicode", "zeroDateTimeBehavior",
            "rewriteBatchedStatements", "cachePrepStmts", "useServerPrepStmts", "prepStmtCacheSize",
            "prepStmtCacheSqlLimit", "allowPublicKeyRetrieval", "autoReconnect", "useLegacyDatetimeCode",
            "tcpKeepAlive", "socketTimeout", "allowMultiQueries", "useAffectedRows", "permitMysqlScheme");

    /** The URL for the core; throws {@link InvalidArgumentException} naming what is wrong. */
    static String resolve(String url, String user, String password) {
        if (url.startsWith("jdbc:postgresql:")) return postgres(url.substring("jdbc:postgresql:".length()), user, password);
        if (url.startsWith("jdbc:mysql:")) return mysql("mysql", url.substring("jdbc:mysql:".length()), user, password);
        if (url.startsWith("jdbc:mariadb:")) return mysql("mariadb", url.substring("jdbc:mariadb:".length()), user, password);
        if (url.regionMatches(true, 0, "jdbc:", 0, 5)) {
            String sub = url.substring(5).split(":", 2)[0];
            throw invalid("the JDBC URL's subprotocol " + printable(sub) + " is none advlock locks on: give "
                    + PG_EXAMPLE + " or " + MYSQL_EXAMPLE + " (lower case, as the drivers need them)");
        }
        if (user == null && password == null) return url;
        if (url.equals("local") || url.startsWith("local:") || url.startsWith("file:")) {
            throw invalid("a local session (" + url.split("[:?]", 2)[0] + ") has no user or password: "
                    + "leave SessionOptions.user and password unset");
        }
        if (url.regionMatches(true, 0, "mysql://", 0, 8) || url.regionMatches(true, 0, "mariadb://", 0, 10)) {
            int start = url.indexOf("://") + 3;
            return url.substring(0, start) + withCredentials(url.substring(start), user, password);
        }
        if (url.startsWith("postgresql://") || url.startsWith("postgres://")) {
            StringBuilder out = new StringBuilder(url);
            char separator = url.indexOf('?') >= 0 ? '&' : '?';
            if (user != null) out.append(separator).append("user=").append(encode(user));
            if (user != null) separator = '&';
            if (password != null) out.append(separator).append("password=").append(encode(password));
            return out.toString();  // libpq: a parameter wins over the user:password@ before it
        }
        // A libpq key=value string (or "", libpq's defaults): a later keyword wins.
        StringBuilder out = new StringBuilder(url);
        if (user != null) out.append(" user=").append(quote(user));
        if (password != null) out.append(" password=").append(quote(password));
        return out.toString();
    }

    // ---- PostgreSQL --------------------------------------------------------------------

    private static String postgres(String rest, String user, String password) {
        if (!rest.startsWith("//")) {
            throw invalid("the JDBC URL names no host (jdbc:postgresql:DB is pgjdbc's shorthand for localhost:5432, "
                    + "which advlock wants spelled out): give " + PG_EXAMPLE);
        }
        int query = rest.indexOf('?');
        Map<String, String> parameters = parameters(query < 0 ? "" : rest.substring(query + 1));
        String location = query < 0 ? rest.substring(2) : rest.substring(2, query);
        int slash = location.indexOf('/');
        String authority = slash < 0 ? location : location.substring(0, slash);
        if (authority.indexOf('@') >= 0) {
            throw invalid("the JDBC URL has a user:password@ part, which pgjdbc does not read: give the user and "
                    + "password as ?user=&password= parameters or in SessionOptions");
        }
        StringBuilder hosts = new StringBuilder();
        StringBuilder ports = new StringBuilder();
        for (String address : authority.split(",", -1)) {
            String[] hostPort = hostAndPort(address, "5432", PG_EXAMPLE);
            hosts.append(hosts.length() > 0 ? "," : "").append(hostPort[0]);
            ports.append(ports.length() > 0 ? "," : "").append(hostPort[1]);
        }
        Map<String, String> conninfo = new LinkedHashMap<>();
        conninfo.put("host", hosts.toString());
        conninfo.put("port", ports.toString());
        if (slash >= 0 && slash + 1 < location.length()) conninfo.put("dbname", decode(location.substring(slash + 1), "database name"));
        for (Map.Entry<String, String> p : parameters.entrySet()) {
            String name = p.getKey();
            String value = p.getValue();
            if (PG_MAPPED.containsKey(name)) {
                conninfo.put(PG_MAPPED.get(name), value);
            } else if (name.equals("connectTimeout")) {
                conninfo.put("connect_timeout", number(name, value));
            } else if (name.equals("gssEncMode")) {
                conninfo.put("gssencmode", value);
            } else if (name.equals("ssl")) {
                if (!value.equals("false")) conninfo.putIfAbsent("sslmode", "verify-full");  // pgjdbc's meaning
            } else if (name.equals("targetServerType")) {
                if (value.equals("primary") || value.equals("master")) {
                    conninfo.put("target_session_attrs", "read-write");
                } else if (!value.equals("any")) {
                    throw invalid("the JDBC URL's targetServerType asks for a standby: advlock locks on the primary "
                            + "(allow a standby with SessionOptions.allowStandby, and targetServerType=any)");
                }
            } else if (!PG_IGNORED.contains(name)) {
                throw invalid("the JDBC URL's parameter " + printable(name) + " is not one advlock can apply to its "
                        + "lock connection (it takes user, password, ApplicationName, ssl, sslmode, sslcert, sslkey, "
                        + "sslrootcert, sslpassword, options, connectTimeout, gssEncMode, targetServerType, and "
                        + "ignores pgjdbc's statement settings); leave it out, or give a postgresql:// URL");
            }
        }
        if (user != null) conninfo.put("user", user);
        if (password != null) conninfo.put("password", password);
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, String> e : conninfo.entrySet()) {
            out.append(out.length() > 0 ? " " : "").append(e.getKey()).append('=').append(quote(e.getValue()));
        }
        return out.toString();
    }

    // ---- MySQL / MariaDB -----------------------------------------------------------------

    private static String mysql(String scheme, String rest, String user, String password) {
        if (!rest.startsWith("//")) {
            throw invalid("the JDBC URL " + (rest.isEmpty() || rest.startsWith("/") ? "names no host"
                    : "asks for a driver mode (replication:, loadbalance:...) advlock has none of")
                    + ": give " + MYSQL_EXAMPLE);
        }
        int query = rest.indexOf('?');
        Map<String, String> parameters = parameters(query < 0 ? "" : rest.substring(query + 1));
        String location = query < 0 ? rest.substring(2) : rest.substring(2, query);
        int slash = location.indexOf('/');
        String authority = slash < 0 ? location : location.substring(0, slash);
        String credentials = "";
        int at = authority.lastIndexOf('@');
        if (at >= 0) {
            credentials = authority.substring(0, at + 1);
            authority = authority.substring(at + 1);
        }
        if (authority.indexOf(',') >= 0) {
            throw invalid("the JDBC URL lists several hosts: advlock's MySQL session connects to one; give " + MYSQL_EXAMPLE);
        }
        String[] hostPort = hostAndPort(authority, "3306", MYSQL_EXAMPLE);
        String host = hostPort[0].indexOf(':') >= 0 ? "[" + hostPort[0] + "]" : hostPort[0];
        StringBuilder out = new StringBuilder(scheme).append("://").append(credentials).append(host).append(':')
                .append(hostPort[1]).append('/');
        if (slash >= 0) out.append(encode(decode(location.substring(slash + 1), "database name")));
        String urlUser = null;
        String urlPassword = null;
        String separator = "?";
        for (Map.Entry<String, String> p : parameters.entrySet()) {
            String name = p.getKey();
            String value = p.getValue();
            if (name.equals("user")) {
                urlUser = value;
            } else if (name.equals("password")) {
                urlPassword = value;
            } else if (name.equals("connectTimeout")) {  // Connector/J: milliseconds; the core: seconds
                long ms = Long.parseLong(number(name, value));
                if (ms > 0) {
                    out.append(separator).append("connect_timeout=").append(Math.max(1, (ms + 999) / 1000));
                    separator = "&";
                }
            } else if ((name.equals("useSSL") || name.equals("requireSSL")) && value.equals("false")
                    || name.equals("sslMode") && value.equalsIgnoreCase("DISABLED")) {
                continue;  // what advlock's MySQL connection does anyway
            } else if (!MYSQL_IGNORED.contains(name)) {
                throw invalid("the JDBC URL's parameter " + printable(name) + " is not one advlock can apply to its "
                        + "MySQL connection (it takes user, password, connectTimeout, and ignores Connector/J's "
                        + "statement settings; TLS settings it has none of); leave it out, or give a mysql:// URL");
            }
        }
        String base = out.toString();
        String after = base.substring(scheme.length() + 3);
        return scheme + "://" + withCredentials(after, user != null ? user : urlUser,
                                                password != null ? password : urlPassword);
    }

    /** after-the-scheme part of a mysql:// URL with its user:password@ replaced by what is given. */
    private static String withCredentials(String afterScheme, String user, String password) {
        int end = afterScheme.length();
        for (char c : new char[] {'/', '?'}) {
            int i = afterScheme.indexOf(c);
            if (i >= 0 && i < end) end = i;
        }
        int at = afterScheme.substring(0, end).lastIndexOf('@');
        String userinfo = at < 0 ? "" : afterScheme.substring(0, at);
        String location = afterScheme.substring(at + 1);
        int colon = userinfo.indexOf(':');
        String oldUser = colon < 0 ? userinfo : userinfo.substring(0, colon);
        String oldPassword = colon < 0 ? null : userinfo.substring(colon + 1);
        String newUser = user != null ? encode(user) : oldUser;
        String newPassword = password != null ? encode(password) : oldPassword;
        if (newUser.isEmpty() && newPassword == null) return location;
        return newUser + (newPassword != null ? ":" + newPassword : "") + "@" + location;
    }

    // ---- shared ---------------------------------------------------------------------------

    private static String[] hostAndPort(String address, String defaultPort, String example) {
        String host = address;
        String port = defaultPort;
        int close = address.lastIndexOf(']');
        int colon = address.lastIndexOf(':');
        if (address.startsWith("[")) {  // [IPv6]:port
            if (close < 0) throw invalid("the JDBC URL has a '[' without ']' around an IPv6 host: give " + example);
            host = address.substring(1, close);
            if (colon > close) port = address.substring(colon + 1);
        } else if (colon >= 0) {
            host = address.substring(0, colon);
            port = address.substring(colon + 1);
        }
        if (host.isEmpty()) throw invalid("the JDBC URL names no host: give " + example);
        if (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
            throw invalid("the JDBC URL has a port that is not a number from 1 to 65535: give " + example);
        }
        return new String[] {host, port};
    }

    /** name=value&... as the JDBC drivers read it (URLDecoder: '+' is a space); a later name wins. */
    private static Map<String, String> parameters(String query) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) continue;
            int equals = pair.indexOf('=');
            String name = equals < 0 ? pair : pair.substring(0, equals);
            out.remove(name);
            out.put(name, equals < 0 ? "" : decode(pair.substring(equals + 1), "parameter " + printable(name)));
        }
        return out;
    }

    private static String decode(String text, String what) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw invalid("the JDBC URL's " + what + " has a '%' not followed by two hex digits (write '%' as %25)");
        }
    }

    private static String number(String name, String value) {
        if (!value.matches("[0-9]{1,9}")) throw invalid("the JDBC URL's " + name + " is not a whole number");
        return value;
    }

    /** A libpq key=value value: single-quoted, backslash before ' and \. */
    static String quote(String value) {
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    /** Percent-encoding of every byte but RFC 3986's unreserved characters. */
    static String encode(String value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "-._~".indexOf(c) >= 0)) {
                out.write(c);
            } else {
                out.writeBytes(String.format("%%%02X", b & 0xff).getBytes(StandardCharsets.US_ASCII));
            }
        }
        return out.toString(StandardCharsets.US_ASCII);
    }

    /** A name from the URL, quoted, short, and only if it is a plain word (never a value). */
    private static String printable(String name) {
        return name.matches("[A-Za-z0-9_.+-]{1,40}") ? "\"" + name + "\"" : "(not shown: not a plain word)";
    }

    private static InvalidArgumentException invalid(String message) {
        return new InvalidArgumentException("advlock: " + message, "");
    }
}
