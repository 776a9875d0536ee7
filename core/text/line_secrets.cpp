#include "text/line_secrets.hpp"

#include <algorithm>
#include <vector>

#include "text/message_text.hpp"
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

namespace {

std::vector<std::string> secrets_in_line(std::string_view line) {
    std::vector<std::string> found = secrets_in_conninfo(line);
    if (const auto eq = line.find('='); eq != std::string_view::npos) {
        // The value alone, as if it were the connection string it holds.
        std::string_view value = line.substr(eq + 1);
        while (!value.empty() && (value.front() == ' ' || value.front() == '\t' || value.front() == '"' ||
                                  value.front() == '\'')) {
            value.remove_prefix(1);
        }
        for (std::string &secret : secrets_in_conninfo(value)) found.push_back(std::move(secret));
    }
    // Once each, longest first; none made only of '*': redact() writes
    // "********", which such a secret would match again and again (the text
    // grew eightfold per secret: a 400-byte line took minutes, found by
    // fuzz_config).
    std::vector<std::string> secrets;
    for (std::string &secret : found) {
        if (secret.find_first_not_of('*') == std::string::npos) continue;
        if (std::find(secrets.begin(), secrets.end(), secret) == secrets.end()) secrets.push_back(std::move(secret));
    }
    std::sort(secrets.begin(), secrets.end(), [](const std::string &a, const std::string &b) { return a.size() > b.size(); });
    return secrets;
}

}  // namespace

namespace {

bool too_long(std::string_view line, std::string_view input) {
    return line.size() > kLongestQuotedLine || input.size() > kLongestQuotedLine;
}

std::string not_shown(std::string_view input) { return "(" + std::to_string(input.size()) + " bytes, not shown)"; }

}  // namespace

std::string redacted_from_line(std::string_view line, std::string_view input) {
    return too_long(line, input) ? not_shown(input) : redact(std::string(input), secrets_in_line(line));
}

std::string quoted_from_line(std::string_view line, std::string_view input, std::size_t max_bytes) {
    return too_long(line, input) ? not_shown(input) : quoted(redacted_from_line(line, input), max_bytes);
}

}  // namespace advlock::core
