#include "local/local_lock_directory.hpp"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

#include "error.hpp"
#include "keys/key_text.hpp"
#include "text/message_text.hpp"

namespace advlock::core {

bool is_local_url(const std::string &url) {
    return url == "local" || url.rfind("local:", 0) == 0 || url.rfind("file:", 0) == 0;
}

namespace {

void make_directory(const std::string &path, bool shared) {
    // Every missing parent too, as mkdir -p does.
    for (std::size_t slash = path.find('/', 1); ; slash = path.find('/', slash + 1)) {
        const std::string part = slash == std::string::npos ? path : path.substr(0, slash);
        if (::mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) {
            throw IoError("cannot make the lock directory " + quoted(part, 200) + ": " + std::strerror(errno));
        }
        if (slash == std::string::npos) break;
    }
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
        throw IoError("the lock directory " + quoted(path, 200) + " is not a directory");
    }
    // The shared default is for every user of the host, like /tmp.
    if (shared && (info.st_mode & 07777) != 01777 && info.st_uid == ::geteuid()) ::chmod(path.c_str(), 01777);
}

}  // namespace

std::string local_lock_directory(const std::string &url) {
    std::string path;
    if (url == "local" || url == "local:") {
        path = kDefaultLocalLockDirectory;
    } else if (url.rfind("local:", 0) == 0) {
        path = url.substr(6);
    } else {
        path = url.substr(5);  // file:
        if (path.rfind("//", 0) == 0) path = path.substr(2);  // file:///dir
    }
    if (path.empty() || path[0] != '/') {
        throw InvalidArgument("local lock URL " + quoted(url, 200) +
                              ": give local (the default directory " + kDefaultLocalLockDirectory +
                              "), local:/absolute/dir or file:/absolute/dir");
    }
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    make_directory(path, path == kDefaultLocalLockDirectory);
    return path;
}

std::string lock_file_path(const std::string &directory, const Key &key) {
    return directory + "/" + format_key(key) + ".lock";
}

std::optional<Key> key_of_lock_file(const std::string &file_name) {
    constexpr std::string_view kSuffix = ".lock";
    if (file_name.size() <= kSuffix.size() || file_name.substr(file_name.size() - kSuffix.size()) != kSuffix) {
        return std::nullopt;
    }
    const std::string text = file_name.substr(0, file_name.size() - kSuffix.size());
    if (text.rfind("name:", 0) == 0) return std::nullopt;
    try {
        return parse_key(text);
    } catch (const BadKey &) {
        return std::nullopt;
    }
}

}  // namespace advlock::core
