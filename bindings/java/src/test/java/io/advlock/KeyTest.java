package io.advlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KeyTest {
    @Test
    void sharedNameVectorsInEveryScheme() throws Exception {
        JsonObject vectors = JsonParser.parseString(
                Files.readString(TestPostgres.repoRoot().resolve("tests/data/key-vectors.json"))).getAsJsonObject();
        int checked = 0;
        for (JsonElement element : vectors.getAsJsonArray("names")) {
            JsonObject v = element.getAsJsonObject();
            String name = v.get("name").getAsString();
            assertEquals(Key.bigint(v.get("advlock").getAsLong()), Key.fromName(name), name);
            var compat = v.getAsJsonArray("with_advisory_lock");
            assertEquals(Key.pair(compat.get(0).getAsInt(), compat.get(1).getAsInt()), Key.fromNameCompat(name, 0), name);
            var prefixed = v.getAsJsonArray("with_advisory_lock_prefix_42");
            assertEquals(Key.pair(prefixed.get(0).getAsInt(), prefixed.get(1).getAsInt()), Key.fromNameCompat(name, 42));
            checked++;
        }
        assertTrue(checked >= 13, "vectors checked: " + checked);
    }

    @Test
    void textFormsRoundTrip() {
        assertEquals("100:1", Key.pair(100, 1).toString());
        assertEquals(Key.pair(100, 1), Key.parse("100:1"));
        assertEquals(Key.bigint(-42), Key.parse("-42"));
        assertEquals(Key.fromName("daily_sales"), Key.parse("name:daily_sales"));
        assertEquals(Key.bigint(Long.MIN_VALUE), Key.parse(Key.bigint(Long.MIN_VALUE).toString()));
        assertNotEquals(Key.bigint(5), Key.pair(0, 5));
        assertEquals(Key.pair(1, 2).hashCode(), Key.parse("1:2").hashCode());
    }

    @Test
    void keysMadeFromNamesKeepTheName() {
        // MySQL sessions lock the name itself, so every way of naming a lock keeps it.
        assertEquals("daily_sales", Key.fromName("daily_sales").name().orElseThrow());
        assertEquals("daily_sales", Key.parse("name:daily_sales").name().orElseThrow());
        assertTrue(Key.pair(100, 1).name().isEmpty());
        assertTrue(Key.parse("7").name().isEmpty());
        assertTrue(Key.fromNameCompat("daily_sales", 0).name().isEmpty());
        try (Registry registry = Registry.parse("[locks.weekly_report]\ndescription = \"no key\"\n"
                                                + "[locks.pair]\nkey = [1, 2]\n", "test.toml")) {
            assertEquals("weekly_report", registry.key("weekly_report").name().orElseThrow());
            assertEquals(Key.fromName("weekly_report"), registry.key("weekly_report"));
            assertTrue(registry.key("pair").name().isEmpty());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1:", ":1", "1:2:3", "abc", "+5", "99999999999:1", "9223372036854775808", "name:"})
    void malformedKeyTextIsBadKey(String text) {
        BadKeyException e = assertThrows(BadKeyException.class, () -> Key.parse(text));
        assertEquals("ADVLOCK_EKEY", Statuses.nameOf(e.status()));
    }

    @Test
    void badNames() {
        assertThrows(BadKeyException.class, () -> Key.fromName(""));
        assertThrows(BadKeyException.class, () -> Key.fromName("x".repeat(1025)));
        assertThrows(InvalidArgumentException.class, () -> Key.fromName(null));
        assertThrows(IllegalStateException.class, () -> Key.bigint(1).k1());
    }

    @Test
    void registryLookups() {
        try (Registry registry = Registry.parse("[locks.daily_sales]\nkey = [100, 1]\n\n[locks.sync]\nkey = 7001\n",
                                                "test.toml")) {
            assertEquals(2, registry.size());
            assertEquals(Key.pair(100, 1), registry.key("daily_sales"));
            assertEquals("sync", registry.nameOf(Key.bigint(7001)).orElseThrow());
            assertTrue(registry.nameOf(Key.bigint(1)).isEmpty());
            NotFoundException e = assertThrows(NotFoundException.class, () -> registry.key("daily_sale"));
            assertTrue(e.getMessage().contains("daily_sales"), e.getMessage());
        }
        RegistryException bad = assertThrows(RegistryException.class,
                () -> Registry.parse("[locks.a]\nkey = 1.5\n", "bad.toml"));
        assertTrue(bad.getMessage().startsWith("bad.toml:2"), bad.getMessage());
    }

    @Test
    void versionMatchesTheCLibrary() throws Exception {
        String header = Files.readString(TestPostgres.repoRoot().resolve("capi/include/advlock/version.h"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "ADVLOCK_VERSION_MAJOR (\\d+)[\\s\\S]*ADVLOCK_VERSION_MINOR (\\d+)[\\s\\S]*ADVLOCK_VERSION_PATCH (\\d+)")
                .matcher(header);
        assertTrue(m.find());
        String version = m.group(1) + "." + m.group(2) + "." + m.group(3);
        assertEquals(version, io.advlock.internal.AdvlockNative.version());
        String pom = Files.readString(TestPostgres.repoRoot().resolve("bindings/java/pom.xml"));
        assertTrue(pom.contains("<version>" + version + "</version>"), "pom.xml version is not " + version);
    }
}
