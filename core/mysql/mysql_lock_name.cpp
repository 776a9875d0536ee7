#include "mysql/mysql_lock_name.hpp"

#include "error.hpp"
#include "keys/key_text.hpp"
#include "text/message_text.hpp"

namespace advlock::core {

namespace {

constexpr std::string_view kKeyPrefix = "advlock:";

// Characters, as MySQL counts them: UTF-8 sequences, not bytes.
std::size_t utf8_characters(std::string_view text) {
    std::size_t count = 0;
    for (const char c : text) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return count;
}

}  // namespace

std::string mysql_lock_name(const LockTarget &target, const std::string &scope) {
    if (target.name() && target.name()->compare(0, kKeyPrefix.size(), kKeyPrefix) == 0) {
        throw BadKey("lock name " + quoted(*target.name()) + ": on MySQL, names starting with " +
                     quoted(kKeyPrefix) + " are how keys are written, so a name may not start so; rename it, "
                     "or lock the key itself");
    }
    const std::string prefix = scope.empty() ? std::string() : scope + ":";
    const std::string name = prefix + (target.name() ? *target.name() : std::string(kKeyPrefix) + format_key(target.key()));
    if (const std::size_t length = utf8_characters(name); length > kMysqlLockNameMaxChars) {
        throw BadKey("lock name " + quoted(name) + " is " + std::to_string(length) +
                     " characters; MySQL and MariaDB lock names hold at most " +
                     std::to_string(kMysqlLockNameMaxChars) +
                     (prefix.empty() ? std::string() : " (the scope " + quoted(prefix) + " included)") +
                     ": use a shorter name, or a key");
    }
    return name;
}

std::optional<LockTarget> target_of_mysql_lock_name(std::string_view server_name, const std::string &scope) {
    if (!scope.empty()) {
        const std::string prefix = scope + ":";
        if (server_name.substr(0, prefix.size()) != prefix) return std::nullopt;
        server_name.remove_prefix(prefix.size());
    }
    try {
        if (server_name.substr(0, kKeyPrefix.size()) == kKeyPrefix) {
            const std::string_view text = server_name.substr(kKeyPrefix.size());
            if (text.substr(0, 5) != "name:") return LockTarget(parse_key(text));
        }
        return LockTarget::named(server_name);
    } catch (const BadKey &) {
        return std::nullopt;
    }
}

}  // namespace advlock::core
