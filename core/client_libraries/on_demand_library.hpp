// A client library (libpq, MariaDB Connector/C) loaded the first time one of
// its functions is called, not when the program starts.
//
// libadvlock.so and the advlock command link client_libraries/*_on_demand.cpp
// instead of the libraries themselves: a `--db local` run then maps none of
// libpq, libmariadb and what they pull in (Kerberos, LDAP, OpenSSL, GnuTLS),
// which was most of its start-up, and a host without the MariaDB client runs
// PostgreSQL jobs. The bindings link the libraries directly (their wheels and
// jars bundle them); see core/CMakeLists.txt, ADVLOCK_CLIENTS_ON_DEMAND.
#pragma once

#include <mutex>
#include <string>

namespace advlock::core {

class OnDemandLibrary {
public:
    // soname: what dlopen looks for; needed: who needs it and how to install
    // it ("postgresql:// URLs need libpq (Debian: apt-get install libpq5)"),
    // the start of the error when it cannot be loaded.
    OnDemandLibrary(const char *soname, const char *needed) noexcept : soname_(soname), needed_(needed) {}

    // The function called name, loading the library first if need be. Throws
    // Unsupported, saying what needs it and how to install it, when it cannot be loaded
    // or lacks the function. Thread-safe; the library is never unloaded (a
    // thread may still be in it).
    template <typename Function>
    Function function(const char *name) const {
        return reinterpret_cast<Function>(symbol(name));
    }

private:
    void *symbol(const char *name) const;

    const char *soname_;
    const char *needed_;
    mutable std::once_flag loaded_;
    mutable void *handle_ = nullptr;
    mutable std::string failure_;  // dlerror()'s text when the load failed
};

}  // namespace advlock::core
