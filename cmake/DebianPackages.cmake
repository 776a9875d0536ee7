# The Debian packages, made by CPack from the install components
# (scripts/build-deb.sh builds them; included when ADVLOCK_PACKAGE_DEB is ON):
#   libadvlock0     runtime: libadvlock.so.0
#   libadvlock-dev  dev: headers, the libadvlock.so link, CMake package, advlock.pc
#   advlock         cli: the command and man advlock
# Depends: come from dpkg-shlibdeps, so they name exactly the libraries the
# binaries link (libpq5; libmariadb3 only with ADVLOCK_WITH_MYSQL).
if(NOT ADVLOCK_BUILD_CLI OR NOT ADVLOCK_BUILD_MAN)
  message(FATAL_ERROR "ADVLOCK_PACKAGE_DEB needs ADVLOCK_BUILD_CLI and ADVLOCK_BUILD_MAN: the advlock package "
                      "holds the command and its man page")
endif()

set(ADVLOCK_DEB_MAINTAINER "advlock developers" CACHE STRING
    "The Maintainer: field of the Debian packages (Debian wants 'Name <email>')")

set(_advlock_lib_package libadvlock${ADVLOCK_SOVERSION})
if(ADVLOCK_WITH_MYSQL)
  set(_advlock_backends "PostgreSQL advisory locks, MySQL/MariaDB GET_LOCK, or flock on one host")
else()
  set(_advlock_backends "PostgreSQL advisory locks or flock on one host (built without MySQL/MariaDB)")
endif()
# Every package carries the licence as /usr/share/doc/PACKAGE/copyright, as
# Debian policy asks.
foreach(_pair "runtime;${_advlock_lib_package}" "dev;libadvlock-dev" "cli;advlock")
  list(GET _pair 0 _component)
  list(GET _pair 1 _package)
  install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${_package}
          RENAME copyright COMPONENT ${_component})
endforeach()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME advlock)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "advlock developers")
set(CPACK_PACKAGE_CONTACT "${ADVLOCK_DEB_MAINTAINER}")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENTS_ALL runtime dev cli)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # NAME_VERSION_ARCH.deb
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# dpkg-shlibdeps skips libadvlock.so.0, built here rather than found in an
# installed package, so the command names its library itself; libadvlock0
# gets a shlibs file for packages built against it later.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/capi)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME ${_advlock_lib_package})
# libadvlock.so loads the client libraries when a session needs them
# (core/client_libraries), so dpkg-shlibdeps cannot see them: PostgreSQL's is
# a dependency, MariaDB's a recommendation (PostgreSQL-only hosts may go
# without it; a mysql:// URL then fails naming the package).
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "libpq5")
if(ADVLOCK_WITH_MYSQL)
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "libmariadb3")
endif()
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "advlock: cross-host job locks (shared library)
 libadvlock keeps jobs from running twice at once, across hosts, with
 ${_advlock_backends}.
 This package holds the shared library with its C ABI.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libadvlock-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${_advlock_lib_package} (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_DEV_DESCRIPTION "advlock: cross-host job locks (development files)
 The C header advlock.h, the header-only C++ wrapper advlock.hpp, the
 libadvlock.so link, the CMake package (find_package(advlock)) and the
 pkg-config file (advlock.pc).")

set(CPACK_DEBIAN_CLI_PACKAGE_NAME advlock)
set(CPACK_DEBIAN_CLI_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_CLI_PACKAGE_DEPENDS "${_advlock_lib_package} (>= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_CLI_DESCRIPTION "advlock: cross-host job locks (command)
 advlock run keeps cron jobs from running twice at once, across hosts, with
 ${_advlock_backends}.
 hold, status, key, sql and check help run them. Includes man advlock.")

include(CPack)
