/*
 * advlock/version.h: the library version, at compile time and at run time.
 *
 * This file is the single source of the version: CMake reads the three
 * numbers below (see the top-level CMakeLists.txt), so change them here only.
 * ADVLOCK_SOVERSION changes only when the C ABI breaks.
 */
#ifndef ADVLOCK_VERSION_H
#define ADVLOCK_VERSION_H

#define ADVLOCK_VERSION_MAJOR 0
#define ADVLOCK_VERSION_MINOR 1
#define ADVLOCK_VERSION_PATCH 0
#define ADVLOCK_VERSION "0.1.0"
#define ADVLOCK_SOVERSION 0

/* One number that grows with every release: 10000*major + 100*minor + patch. */
#define ADVLOCK_VERSION_NUMBER \
    (ADVLOCK_VERSION_MAJOR * 10000 + ADVLOCK_VERSION_MINOR * 100 + ADVLOCK_VERSION_PATCH)

#endif /* ADVLOCK_VERSION_H */
