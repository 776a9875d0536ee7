package io.advlock;

/** Child JVM for NativeAccessTest: the first native call (which loads the library), then its result. */
public final class NativeAccessMain {
    public static void main(String[] args) {
        System.out.println(Key.parse("100:1"));
    }
}
