// Keeping the MySQL password off the command line (issue 17), through the C
// ABI against the fixture's MariaDB, whose user advlock has a password: from
// the [client] group of an option file (the one ?option_file= names, or
// ~/.my.cnf as the mysql client reads it) and from MYSQL_PWD; what the URL
// says wins; a wrong password is refused without being repeated.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "advlock.h"
#include "support/c_handles.hpp"
#include "support/temp_directory.hpp"
#include "support/test_mariadb.hpp"

namespace advlock::test {
namespace {

std::string state_value(const char *name) { return read_first_line(mariadb_state_dir() + "/" + name, name); }

// mysql://advlock@127.0.0.1:PORT/advlock: the fixture's URL without its password.
std::string url_without_password(const std::string &query = "") {
    return "mysql://advlock@127.0.0.1:" + state_value("port") + "/advlock" + query;
}

// Sets an environment variable for one test, restoring it afterwards.
class ScopedEnvironment {
public:
    ScopedEnvironment(const char *name, const std::string &value) : name_(name) {
        if (const char *old = std::getenv(name)) old_ = old;
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedEnvironment() {
        if (old_) {
            ::setenv(name_, old_->c_str(), 1);
        } else {
            ::unsetenv(name_);
        }
    }

private:
    const char *name_;
    std::optional<std::string> old_;
};

// A HOME of the test's own (no ~/.my.cnf of the machine's user) and no MYSQL_PWD.
class CredentialsTest : public ::testing::Test {
protected:
    void SetUp() override { ::unsetenv("MYSQL_PWD"); }
    void write(const std::string &path, const std::string &text) { std::ofstream(path) << text; }
    advlock_status open(const std::string &url) {
        advlock_session *session = nullptr;
        const advlock_status status = advlock_session_open(&session, url.c_str(), nullptr);
        Session closing(session);
        message_ = status == ADVLOCK_OK ? "" : advlock_error_last()->message;
        return status;
    }

    TempDirectory home_{"advlock-mysql-home"};
    ScopedEnvironment home_variable_{"HOME", home_.path()};
    const std::string password_ = state_value("password");
    std::string message_;
};

TEST_F(CredentialsTest, PasswordFromTheOptionFileTheUrlNames) {
    const std::string file = home_.path() + "/advlock.cnf";
    write(file, "[client]\npassword=" + password_ + "\n");
    EXPECT_EQ(open(url_without_password("?option_file=" + file)), ADVLOCK_OK) << message_;
}

TEST_F(CredentialsTest, PasswordFromTheClientGroupOfDotMyCnf) {
    write(home_.path() + "/.my.cnf", "[mysql]\nuser=nobody\n\n[client]\npassword=\"" + password_ + "\"\n");
    EXPECT_EQ(open(url_without_password()), ADVLOCK_OK) << message_;
}

TEST_F(CredentialsTest, UserAndPortFromTheOptionFile) {
    write(home_.path() + "/.my.cnf",
          "[client]\nuser=advlock\nport=" + state_value("port") + "\npassword=" + password_ + "\n");
    EXPECT_EQ(open("mysql://127.0.0.1/advlock"), ADVLOCK_OK) << message_;
}

TEST_F(CredentialsTest, PasswordFromMysqlPwd) {
    ScopedEnvironment pwd("MYSQL_PWD", password_);
    EXPECT_EQ(open(url_without_password()), ADVLOCK_OK) << message_;
}

TEST_F(CredentialsTest, TheUrlWinsOverTheOptionFile) {
    write(home_.path() + "/.my.cnf", "[client]\nuser=nobody\nport=1\npassword=Wr0ngFilePw\n");
    EXPECT_EQ(open(mariadb_url()), ADVLOCK_OK) << message_;
}

TEST_F(CredentialsTest, TheOptionFileWinsOverMysqlPwd) {
    // As for the mysql client: MYSQL_PWD is the last resort.
    write(home_.path() + "/.my.cnf", "[client]\npassword=" + password_ + "\n");
    ScopedEnvironment pwd("MYSQL_PWD", "Wr0ngEnvPw");
    EXPECT_EQ(open(url_without_password()), ADVLOCK_OK) << message_;
}

TEST_F(CredentialsTest, WrongPasswordsAreRefusedWithoutBeingRepeated) {
    write(home_.path() + "/.my.cnf", "[client]\npassword=Wr0ngFilePw\n");
    EXPECT_EQ(open(url_without_password()), ADVLOCK_ECONNECT);
    EXPECT_NE(message_.find("Access denied"), std::string::npos) << message_;
    EXPECT_EQ(message_.find("Wr0ngFilePw"), std::string::npos) << message_;

    ::unlink((home_.path() + "/.my.cnf").c_str());
    ScopedEnvironment pwd("MYSQL_PWD", "Wr0ngEnvPw");
    EXPECT_EQ(open(url_without_password()), ADVLOCK_ECONNECT);
    EXPECT_NE(message_.find("Access denied"), std::string::npos) << message_;
    EXPECT_EQ(message_.find("Wr0ngEnvPw"), std::string::npos) << message_;
}

TEST_F(CredentialsTest, AmbiguousUrlsAreRefusedBeforeConnecting) {
    EXPECT_EQ(open("mysql://advlock:Top/Secret@127.0.0.1:" + state_value("port") + "/advlock"), ADVLOCK_EINVAL);
    EXPECT_NE(message_.find("%2F"), std::string::npos) << message_;
    EXPECT_NE(message_.find("MYSQL_PWD"), std::string::npos) << message_;
    EXPECT_EQ(message_.find("Top"), std::string::npos) << message_;
    EXPECT_EQ(message_.find("Secret"), std::string::npos) << message_;
}

}  // namespace
}  // namespace advlock::test
