#include "text/line_secrets.hpp"

#include "text/redact.hpp"

namespace advlock::core {

std::string_view line_of(std::string_view text, int line) {
    std::size_t start = 0;
    for (int i = 1; i < line && start != std::string_view::npos; ++i) {
        start = text.find('\n', start);
        if (start != std::string_view::npos) ++start;
    }
    if (line < 1 || start == std::string_view::npos || start > text.size()) return {};
    return text.substr(start, text.find('\n', start) - start);
}

std::vector<std::string> secrets_in_line(std::string_view line) {
    std::vector<std::string> secrets = secrets_in_conninfo(line);
    if (const auto eq = line.find('='); eq != std::string_view::npos) {
        // The value alone, as if it were the connection string it holds.
        std::string_view value = line.substr(eq + 1);
        while (!value.empty() && (value.front() == ' ' || value.front() == '\t' || value.front() == '"' ||
                                  value.front() == '\'')) {
            value.remove_prefix(1);
        }
        for (std::string &secret : secrets_in_conninfo(value)) secrets.push_back(std::move(secret));
    }
    return secrets;
}

}  // namespace advlock::core
