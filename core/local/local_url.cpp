#include "local/local_url.hpp"

#include "error.hpp"
#include "local/file_owner.hpp"
#include "text/message_text.hpp"

namespace advlock::core {

bool is_local_url(const std::string &url) {
    return url == "local" || url.rfind("local:", 0) == 0 || url.rfind("file:", 0) == 0;
}

namespace {

void read_parameters(const std::string &url, const std::string &query, LocalUrl &parsed) {
    for (std::size_t start = 0; start <= query.size();) {
        const std::size_t end = std::min(query.find('&', start), query.size());
        const std::string parameter = query.substr(start, end - start);
        const std::size_t equals = parameter.find('=');
        const std::string name = parameter.substr(0, equals);
        const std::string value = equals == std::string::npos ? std::string() : parameter.substr(equals + 1);
        if (name == "group" && !value.empty()) {
            parsed.group = group_id(value, "local lock URL " + quoted(url, 200));
            parsed.group_name = value;
        } else if (!parameter.empty()) {
            throw InvalidArgument("local lock URL " + quoted(url, 200) + ": unknown parameter " +
                                  quoted(parameter, 64) +
                                  "; the one known is group=NAME (a lock directory shared by that group only)");
        }
        start = end + 1;
    }
}

}  // namespace

LocalUrl parse_local_url(const std::string &url) {
    // Messages name the directory (and suggest commands with it) unquoted:
    // a path that would need escaping to be shown, or is longer than a path
    // can be, is refused here once.
    constexpr std::size_t kLongestPath = 4096;  // PATH_MAX on Linux
    if (url.size() > kLongestPath || printable(url, kLongestPath) != url) {
        throw InvalidArgument("local lock URL " + quoted(url, 200) +
                              ": give a directory path of at most 4096 bytes of UTF-8 text without control "
                              "characters");
    }
    const std::size_t question = url.find('?');
    const std::string location = url.substr(0, question);
    LocalUrl parsed;
    if (location == "local" || location == "local:") {
        parsed.directory = kDefaultLocalLockDirectory;
    } else if (location.rfind("local:", 0) == 0) {
        parsed.directory = location.substr(6);
    } else {
        parsed.directory = location.substr(5);  // file:
        if (parsed.directory.rfind("//", 0) == 0) parsed.directory = parsed.directory.substr(2);  // file:///dir
    }
    if (parsed.directory.empty() || parsed.directory[0] != '/') {
        throw InvalidArgument("local lock URL " + quoted(url, 200) +
                              ": give local (the default directory " + kDefaultLocalLockDirectory +
                              "), local:/absolute/dir or file:/absolute/dir, optionally with ?group=NAME");
    }
    while (parsed.directory.size() > 1 && parsed.directory.back() == '/') parsed.directory.pop_back();
    parsed.is_default = parsed.directory == kDefaultLocalLockDirectory;
    if (question != std::string::npos) read_parameters(url, url.substr(question + 1), parsed);
    return parsed;
}

}  // namespace advlock::core
