// A directory of the test's own under /tmp, removed with everything in it
// when the test ends (also when it fails).
#pragma once

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace advlock::test {

class TempDirectory {
public:
    explicit TempDirectory(const std::string &prefix = "advlock-test") {
        std::string pattern = "/tmp/" + prefix + ".XXXXXX";
        if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
        path_ = pattern;
    }
    ~TempDirectory() { std::system(("chmod -R u+rwx '" + path_ + "' 2>/dev/null; rm -rf '" + path_ + "'").c_str()); }
    TempDirectory(const TempDirectory &) = delete;
    TempDirectory &operator=(const TempDirectory &) = delete;

    const std::string &path() const { return path_; }

private:
    std::string path_;
};

}  // namespace advlock::test
