package io.advlock;

import io.advlock.internal.AdvlockNative;
import io.advlock.internal.NativeStatusInfo;
import io.advlock.internal.StatusInfoVector;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The status to exception class mapping, read at class load from the C ABI's one status table
 * (advlock_status_at) so that Java restates no status number: each row's class is
 * "io.advlock." + its CamelCase kind, a trailing "Error" dropped, + "Exception" (LockLost:
 * LockLostException, CapacityError: CapacityException). A row without its class maps to
 * {@link AdvlockException}; ErrorsTest fails for it.
 */
final class Statuses {
    /** One row of the table, as Java reads it. */
    static final class Row {
        final int status;
        final String name;       // ADVLOCK_ELOST
        final String kind;       // lock_lost
        final String className;  // io.advlock.LockLostException
        final String parent;     // error, unsafe_target, none

        private Row(NativeStatusInfo info) {
            status = info.getStatus();
            name = info.getName();
            kind = info.getKind();
            className = javaName(info.getClass_name());
            parent = info.getParent();
        }
    }

    private static final List<Row> ROWS;
    private static final Map<Integer, Constructor<? extends AdvlockException>> CONSTRUCTORS = new HashMap<>();
    private static final Map<Class<?>, Integer> STATUS_OF_CLASS = new HashMap<>();

    static {
        List<Row> rows = new ArrayList<>();
        StatusInfoVector table = AdvlockNative.statusTable();
        try {
            for (int i = 0; i < table.size(); i++) rows.add(new Row(table.get(i)));
        } finally {
            table.delete();
        }
        ROWS = Collections.unmodifiableList(rows);
        for (Row row : ROWS) {
            Class<? extends AdvlockException> type = classOf(row.className);
            if (type == null || isSuccess(row)) continue;
            try {
                CONSTRUCTORS.put(row.status, type.getConstructor(String.class, String.class));
                STATUS_OF_CLASS.put(type, row.status);
            } catch (NoSuchMethodException e) {
                // left to AdvlockException; ErrorsTest names the class
            }
        }
    }

    private Statuses() {}

    static List<Row> rows() {
        return ROWS;
    }

    /** The status's name ("ADVLOCK_ELOST"); "" for a status the table lacks. */
    static String nameOf(int status) {
        for (Row row : ROWS) {
            if (row.status == status) return row.name;
        }
        return "";
    }

    /** Success is no exception: the one row without a class. */
    static boolean isSuccess(Row row) {
        return "ok".equals(row.kind);
    }

    /** The exception class a row's parent column names: the base for "error" and "none". */
    static String parentClassName(Row row) {
        return "error".equals(row.parent) || "none".equals(row.parent) ? AdvlockException.class.getName()
                : javaName(camelCase(row.parent));
    }

    /** The class of that name when it is an advlock exception, else null. */
    static Class<? extends AdvlockException> classOf(String className) {
        try {
            Class<?> type = Class.forName(className, false, Statuses.class.getClassLoader());
            return AdvlockException.class.isAssignableFrom(type) ? type.asSubclass(AdvlockException.class) : null;
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    /** The exception for a status, of its class; an AdvlockException for one the table lacks. */
    static AdvlockException create(int status, String message, String sqlstate) {
        Constructor<? extends AdvlockException> constructor = CONSTRUCTORS.get(status);
        if (constructor == null) return new AdvlockException(status, message, sqlstate);
        try {
            return constructor.newInstance(message, sqlstate);
        } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("advlock: cannot make " + constructor.getDeclaringClass().getName(), e);
        }
    }

    /**
     * The status of an exception class (its own row, else its nearest superclass's); the internal
     * error's for a class no row names.
     */
    static int statusOf(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            Integer status = STATUS_OF_CLASS.get(c);
            if (status != null) return status;
        }
        return STATUS_OF_CLASS.get(InternalException.class);
    }

    /** LockLost: io.advlock.LockLostException; CapacityError: io.advlock.CapacityException. */
    static String javaName(String camelKind) {
        String stem = camelKind.endsWith("Error") ? camelKind.substring(0, camelKind.length() - "Error".length())
                : camelKind;
        return "io.advlock." + stem + "Exception";
    }

    /** unsafe_target: UnsafeTarget. */
    private static String camelCase(String snake) {
        StringBuilder out = new StringBuilder();
        for (String word : snake.split("_")) {
            if (!word.isEmpty()) out.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return out.toString();
    }
}
