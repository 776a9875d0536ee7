#include "toml/toml_reader.hpp"

#include <cstdint>
#include <limits>
#include <vector>

#include "text/message_text.hpp"
#include "text/line_secrets.hpp"
#include "text/utf8.hpp"

namespace advlock::core::toml {

// Keeps a function's frame (and its many message temporaries) out of the
// recursive functions that call it.
#define ADVLOCK_NOINLINE __attribute__((noinline))

namespace {

using Kind = Value::Kind;
using Origin = Value::Origin;

bool is_bare_key_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

bool ends_bare_value(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ']' || c == '}' || c == '#';
}

Value make_table(Origin origin, int line) {
    Value table;
    table.kind = Kind::Table;
    table.origin = origin;
    table.line = line;
    return table;
}

class Parser {
public:
    explicit Parser(std::string_view text) : text_(text) {}

    Value parse_document() {
        check_encoding();
        if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // a UTF-8 byte order mark
        root_ = make_table(Origin::Root, 1);
        current_ = &root_;
        current_depth_ = 0;
        for (;;) {
            skip_blank_lines();
            if (at_end()) break;
            if (peek() == '[') {
                parse_table_header();
            } else {
                parse_key_value(*current_, current_depth_);
            }
            expect_end_of_line();
        }
        return std::move(root_);
    }

private:
    // ---- reading characters ------------------------------------------------

    bool at_end() const { return pos_ >= text_.size(); }
    char peek(std::size_t ahead = 0) const {
        return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
    }
    bool starts_with(std::string_view s) const { return text_.substr(pos_, s.size()) == s; }

    [[noreturn]] void fail(const std::string &message) const { throw SyntaxError(line_, message); }

    // Input as a message may quote it: passwords found on the current line
    // replaced first (a config line such as database = postgresql://u:PW@h/db
    // is not TOML, and a cut after the password's first bytes would still
    // show them), then escaped and bounded.
    std::string shown(std::string_view input, std::size_t max_bytes = kQuotedBytes) const {
        return quoted_from_line(current_line(), input, max_bytes);
    }

    // A key path as messages show it: bare segments as they are, others
    // quoted, each redacted like shown() (a connection string may have been
    // written as a key), the whole bounded (16 keys of 4096 bytes each).
    std::string display_path(const std::vector<std::string> &path, std::size_t count) const {
        constexpr std::size_t kShownSegment = 40, kShownPath = 160;
        const std::string_view line = current_line();
        std::string out;
        for (std::size_t i = 0; i < count; ++i) {
            if (out.size() > kShownPath) return out + "...";
            if (i) out += '.';
            bool bare = !path[i].empty();
            for (const char c : path[i]) bare = bare && is_bare_key_char(c);
            const std::string segment = redacted_from_line(line, path[i]);
            out += bare ? printable(segment, kShownSegment) : quoted(segment, kShownSegment);
        }
        return out;
    }

    std::string_view current_line() const {
        std::size_t start = pos_ < text_.size() ? pos_ : text_.size();
        while (start > 0 && text_[start - 1] != '\n') --start;
        return text_.substr(start, text_.find('\n', start) - start);
    }

    int column() const {
        std::size_t start = pos_;
        while (start > 0 && text_[start - 1] != '\n') --start;
        return static_cast<int>(pos_ - start) + 1;
    }

    // One more value in the document; refused past kMaxValues.
    void count_value() {
        if (++values_ > kMaxValues) {
            fail("more than " + std::to_string(kMaxValues) + " values in one file (the limit of advlock files); "
                 "split the file");
        }
    }

    void check_depth(int depth) const {
        if (depth > kMaxDepth) fail_too_deep();
    }

    [[noreturn]] ADVLOCK_NOINLINE void fail_too_deep() const {
        fail("tables, keys and arrays nested more than " + std::to_string(kMaxDepth) +
             " deep (the limit of advlock files, which need three: [locks.NAME] key = [1, 2])");
    }

    [[noreturn]] void fail_at(int line, const std::string &message) const { throw SyntaxError(line, message); }

    void check_encoding() {
        if (const auto bad = first_invalid_utf8(text_)) {
            int line = 1;
            for (std::size_t i = 0; i < *bad; ++i) line += text_[i] == '\n';
            fail_at(line, "invalid UTF-8 (byte " + std::to_string(*bad) + "); the file must be UTF-8 text");
        }
    }

    void skip_spaces() {
        while (!at_end() && (peek() == ' ' || peek() == '\t')) ++pos_;
    }

    void skip_comment() {
        if (peek() != '#') return;
        while (!at_end() && peek() != '\n' && peek() != '\r') {
            const auto c = static_cast<unsigned char>(peek());
            if ((c < 0x20 && c != '\t') || c == 0x7F) fail("control character in a comment");
            ++pos_;
        }
    }

    // Consumes one newline if there is one ("\n" or "\r\n").
    bool take_newline() {
        if (peek() == '\n') {
            ++pos_;
            ++line_;
            return true;
        }
        if (peek() == '\r') {
            if (peek(1) != '\n') fail("a carriage return must be followed by a line feed");
            pos_ += 2;
            ++line_;
            return true;
        }
        return false;
    }

    void skip_blank_lines() {
        for (;;) {
            skip_spaces();
            skip_comment();
            if (!take_newline()) return;
        }
    }

    void expect_end_of_line() {
        skip_spaces();
        skip_comment();
        if (at_end() || take_newline()) return;
        fail("unexpected " + shown(text_.substr(pos_, 20), 20) + " at column " + std::to_string(column()) +
             " after a complete statement; put one key = value or [table] per line");
    }

    // Whitespace, newlines and comments, as allowed between array elements.
    void skip_array_space() {
        for (;;) {
            skip_spaces();
            skip_comment();
            if (!take_newline()) return;
        }
    }

    // ---- keys -------------------------------------------------------------

    std::string parse_simple_key() {
        std::string key = parse_simple_key_text();
        if (key.size() > kMaxKeyBytes) {
            fail("a key of " + std::to_string(key.size()) + " bytes is longer than the " +
                 std::to_string(kMaxKeyBytes) + " bytes allowed for a key");
        }
        return key;
    }

    std::string parse_simple_key_text() {
        if (peek() == '"') {
            if (starts_with("\"\"\"")) fail("a key cannot be a multi-line string");
            return parse_basic_string();
        }
        if (peek() == '\'') {
            if (starts_with("'''")) fail("a key cannot be a multi-line string");
            return parse_literal_string();
        }
        const std::size_t start = pos_;
        while (!at_end() && is_bare_key_char(peek())) ++pos_;
        if (pos_ == start) {
            if (at_end() || peek() == '\n' || peek() == '\r' || peek() == '=') fail("a key is missing");
            fail("unexpected " + shown(text_.substr(pos_, 1)) +
                 " in a key: bare keys use A-Z a-z 0-9 _ -; quote other keys");
        }
        return std::string(text_.substr(start, pos_ - start));
    }

    // A dotted key under a table at depth; refused as soon as it would nest
    // deeper than kMaxDepth (not after reading 80,000 segments).
    ADVLOCK_NOINLINE std::vector<std::string> parse_key_path(int depth) {
        std::vector<std::string> path;
        for (;;) {
            skip_spaces();
            check_depth(depth + static_cast<int>(path.size()) + 1);
            path.push_back(parse_simple_key());
            skip_spaces();
            if (peek() != '.') return path;
            ++pos_;
        }
    }

    // ---- statements -------------------------------------------------------

    void parse_table_header() {
        const int line = line_;
        if (starts_with("[[")) {
            fail("arrays of tables ([[...]]) are not supported in advlock files; "
                 "use one [table] per entry");
        }
        ++pos_;  // '['
        const std::vector<std::string> path = parse_key_path(0);
        if (peek() != ']') fail("expected ']' to close the table header");
        ++pos_;

        current_depth_ = static_cast<int>(path.size());
        Value *table = &root_;
        for (std::size_t i = 0; i + 1 < path.size(); ++i) {
            Value *next = table->find(path[i]);
            if (!next) {
                count_value();
                next = &table->add(path[i], make_table(Origin::Implicit, line));
            } else if (!next->is_table()) {
                fail("[" + display_path(path, path.size()) + "]: " + display_path(path, i + 1) +
                     " is already " + next->kind_name() + " (line " + std::to_string(next->line) +
                     "), not a table");
            } else if (next->origin == Origin::Inline) {
                fail("[" + display_path(path, path.size()) + "]: " + display_path(path, i + 1) +
                     " is an inline table (line " + std::to_string(next->line) + ") and cannot be extended");
            }
            table = next;
        }
        const std::string &last = path.back();
        Value *existing = table->find(last);
        if (!existing) {
            count_value();
            current_ = &table->add(last, make_table(Origin::Header, line));
            return;
        }
        const std::string name = "[" + display_path(path, path.size()) + "]";
        if (!existing->is_table()) {
            fail(name + ": the key is already " + std::string(existing->kind_name()) + " (line " +
                 std::to_string(existing->line) + ")");
        }
        if (existing->origin == Origin::Implicit) {
            existing->origin = Origin::Header;
            existing->line = line;
            current_ = existing;
            return;
        }
        if (existing->origin == Origin::Header) {
            fail("table " + name + " is defined twice (first at line " + std::to_string(existing->line) +
                 "); merge the two");
        }
        fail("table " + name + " was already defined by keys at line " + std::to_string(existing->line));
    }

    // A key = value line in table, which is depth levels deep. This,
    // parse_value, parse_array and parse_inline_table recurse: each keeps its
    // own frame small and leaves the rest (messages above all, whose
    // temporaries are many) to functions that are not inlined into it, so 16
    // levels need little stack even in a sanitizer build.
    void parse_key_value(Value &table, int depth) {
        const int line = line_;
        const std::vector<std::string> path = parse_key_path(depth);
        take_equals(path);
        Value value = parse_value(depth + static_cast<int>(path.size()));
        insert(table, path, line, std::move(value));
    }

    ADVLOCK_NOINLINE void take_equals(const std::vector<std::string> &path) {
        if (peek() != '=') {
            if (at_end() || peek() == '\n' || peek() == '\r' || peek() == '#') {
                fail("key " + display_path(path, path.size()) + " has no value: write key = value");
            }
            fail("expected '=' after key " + display_path(path, path.size()));
        }
        ++pos_;
        skip_spaces();
    }

    // Puts value at path under table, making the tables a dotted key implies.
    ADVLOCK_NOINLINE void insert(Value &table, const std::vector<std::string> &path, int line, Value value) {
        Value *target = &table;
        for (std::size_t i = 0; i + 1 < path.size(); ++i) {
            Value *next = target->find(path[i]);
            if (!next) {
                count_value();
                next = &target->add(path[i], make_table(Origin::DottedKey, line));
            } else if (!next->is_table()) {
                fail("key " + display_path(path, path.size()) + ": " + display_path(path, i + 1) +
                     " is already " + next->kind_name() + " (line " + std::to_string(next->line) + ")");
            } else if (next->origin != Origin::DottedKey) {
                fail("key " + display_path(path, path.size()) + " would extend the table " +
                     display_path(path, i + 1) + " defined at line " + std::to_string(next->line) +
                     "; write the key under that table");
            }
            target = next;
        }
        if (const Value *existing = target->find(path.back())) {
            fail("duplicate key " + display_path(path, path.size()) + " (first defined at line " +
                 std::to_string(existing->line) + ")");
        }
        target->add(path.back(), std::move(value));
    }

    // ---- values -----------------------------------------------------------

    // A value that, when it is an array or an inline table, is depth levels deep.
    Value parse_value(int depth) {
        count_value();
        Value value;
        value.line = line_;
        const char c = peek();
        if (c == '[') {
            parse_array(value, depth);
        } else if (c == '{') {
            parse_inline_table(value, depth);
        } else {
            parse_scalar(value);
        }
        return value;
    }

    ADVLOCK_NOINLINE void parse_scalar(Value &value) {
        const char c = peek();
        if (at_end() || c == '\n' || c == '\r' || c == '#') fail("a value is missing after '='");
        if (c == '"') {
            value.kind = Kind::String;
            value.string = starts_with("\"\"\"") ? parse_multiline_basic_string() : parse_basic_string();
        } else if (c == '\'') {
            value.kind = Kind::String;
            value.string = starts_with("'''") ? parse_multiline_literal_string() : parse_literal_string();
        } else {
            parse_bare_value(value);
        }
    }

    void parse_array(Value &array, int depth) {
        check_depth(depth);
        array.kind = Kind::Array;
        ++pos_;  // '['
        for (;;) {
            skip_array_space();
            if (at_end()) fail_unclosed_array(array);
            if (peek() == ']') break;
            array.items.push_back(parse_value(depth + 1));
            skip_array_space();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            if (peek() == ']') break;
            fail_unclosed_array(array);
        }
        ++pos_;  // ']'
    }

    [[noreturn]] ADVLOCK_NOINLINE void fail_unclosed_array(const Value &array) const {
        if (at_end()) fail_at(array.line, "array is not closed with ']'");
        fail("expected ',' or ']' in an array, found " + shown(text_.substr(pos_, 1)));
    }

    void parse_inline_table(Value &table, int depth) {
        check_depth(depth);
        table.kind = Kind::Table;
        table.origin = Origin::Inline;
        ++pos_;  // '{'
        skip_spaces();
        if (peek() == '}') {
            ++pos_;
            return;
        }
        for (;;) {
            skip_spaces();
            if (at_end() || peek() == '\n' || peek() == '\r') fail_unclosed_inline_table(table);
            parse_key_value(table, depth);
            skip_spaces();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            if (peek() == '}') {
                ++pos_;
                return;
            }
            fail_unclosed_inline_table(table);
        }
    }

    [[noreturn]] ADVLOCK_NOINLINE void fail_unclosed_inline_table(const Value &table) const {
        if (at_end() || peek() == '\n' || peek() == '\r') {
            fail_at(table.line, "inline table is not closed with '}' on the same line");
        }
        fail_at(table.line, "expected ',' or '}' in an inline table (which must fit on one line)");
    }

    void parse_bare_value(Value &value) {
        const std::size_t start = pos_;
        while (!at_end() && !ends_bare_value(peek())) ++pos_;
        const std::string_view token = text_.substr(start, pos_ - start);
        if (token == "true" || token == "false") {
            value.kind = Kind::Boolean;
            value.boolean = token == "true";
            return;
        }
        value.kind = Kind::Integer;
        value.integer = parse_integer(token);
    }

    std::int64_t parse_integer(std::string_view token) {
        if (token.empty()) fail("a value is missing");
        std::string_view digits = token;
        bool negative = false;
        int base = 10;
        if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'o' || digits[1] == 'b')) {
            base = digits[1] == 'x' ? 16 : digits[1] == 'o' ? 8 : 2;
            digits.remove_prefix(2);
        } else if (digits[0] == '+' || digits[0] == '-') {
            negative = digits[0] == '-';
            digits.remove_prefix(1);
        }
        const auto digit_value = [base](char c) -> int {
            int v = -1;
            if (c >= '0' && c <= '9') v = c - '0';
            else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
            return v < base ? v : -1;
        };
        bool well_formed = !digits.empty() && digits.front() != '_' && digits.back() != '_';
        for (std::size_t i = 0; well_formed && i < digits.size(); ++i) {
            if (digits[i] == '_') {
                well_formed = digits[i + 1] != '_';
            } else {
                well_formed = digit_value(digits[i]) >= 0;
            }
        }
        if (!well_formed) fail(describe_bad_value(token));
        if (base == 10 && digits.size() > 1 && digits[0] == '0') {
            fail("integer " + shown(token, 40) + " has a leading zero, which TOML does not allow");
        }

        // Accumulate as a negative number so that INT64_MIN fits.
        constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
        std::int64_t value = 0;
        for (const char c : digits) {
            if (c == '_') continue;
            const int d = digit_value(c);
            if (value < (kMin + d) / base) {
                fail("integer " + shown(token, 40) +
                     " is out of range: TOML integers are 64-bit (-9223372036854775808..9223372036854775807)");
            }
            value = value * base - d;
        }
        if (!negative) {
            if (value == kMin) {
                fail("integer " + shown(token, 40) +
                     " is out of range: TOML integers are 64-bit (-9223372036854775808..9223372036854775807)");
            }
            value = -value;
        }
        return value;
    }

    std::string describe_bad_value(std::string_view token) const {
        const std::string quoted_token = shown(token, 40);
        bool digits_only = true, has_dash_or_colon = false;
        for (const char c : token) {
            if (c == '-' || c == ':') has_dash_or_colon = true;
            else if (c < '0' || c > '9') digits_only = false;
        }
        if (token.size() >= 5 && digits_only && has_dash_or_colon && token[0] != '-') {
            return "dates and times such as " + quoted_token + " are not supported in advlock files; quote it as a string";
        }
        if (token.find_first_of(".eE") != std::string_view::npos || token.find("inf") != std::string_view::npos ||
            token.find("nan") != std::string_view::npos) {
            bool numeric_start = token[0] == '+' || token[0] == '-' || (token[0] >= '0' && token[0] <= '9') ||
                                 token == "inf" || token == "nan";
            if (numeric_start) {
                return "floating-point numbers such as " + quoted_token +
                       " are not supported in advlock files; use an integer or a string";
            }
        }
        return "unexpected value " + quoted_token +
               ": expected a string in quotes, an integer, true or false, an array [...] or a table {...}";
    }

    // ---- strings ----------------------------------------------------------

    void append_char_checked(std::string &out, bool allow_newline) {
        const auto c = static_cast<unsigned char>(peek());
        if (c == '\n' || c == '\r') {
            if (!allow_newline) fail("string is not closed on its line");
            if (c == '\r' && peek(1) != '\n') fail("a carriage return must be followed by a line feed");
            if (c == '\r') ++pos_;
            out += '\n';
            ++pos_;
            ++line_;
            return;
        }
        if ((c < 0x20 && c != '\t') || c == 0x7F) {
            fail("control character U+00" + std::string(1, "0123456789ABCDEF"[c >> 4]) +
                 std::string(1, "0123456789ABCDEF"[c & 15]) + " in a string; write it as an escape");
        }
        out += static_cast<char>(c);
        ++pos_;
    }

    void parse_escape(std::string &out) {
        ++pos_;  // '\'
        const char c = peek();
        ++pos_;
        switch (c) {
            case 'b': out += '\b'; return;
            case 't': out += '\t'; return;
            case 'n': out += '\n'; return;
            case 'f': out += '\f'; return;
            case 'r': out += '\r'; return;
            case '"': out += '"'; return;
            case '\\': out += '\\'; return;
            case 'u':
            case 'U': {
                const int length = c == 'u' ? 4 : 8;
                char32_t cp = 0;
                for (int i = 0; i < length; ++i) {
                    const char h = peek();
                    int v = -1;
                    if (h >= '0' && h <= '9') v = h - '0';
                    else if (h >= 'a' && h <= 'f') v = h - 'a' + 10;
                    else if (h >= 'A' && h <= 'F') v = h - 'A' + 10;
                    if (v < 0) fail(std::string("\\") + c + " needs " + std::to_string(length) + " hex digits");
                    cp = cp * 16 + static_cast<char32_t>(v);
                    ++pos_;
                }
                if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                    fail("escape \\" + std::string(1, c) + " names no Unicode scalar value");
                }
                append_utf8(out, cp);
                return;
            }
            default:
                fail("unknown escape \\" + printable(std::string_view(&c, c ? 1 : 0)) +
                     " in a string; use \\\\ for a backslash, or a 'literal string'");
        }
    }

    std::string parse_basic_string() {
        ++pos_;  // '"'
        std::string out;
        for (;;) {
            if (at_end()) fail("string is not closed with '\"'");
            const char c = peek();
            if (c == '"') {
                ++pos_;
                return out;
            }
            if (c == '\\') {
                parse_escape(out);
            } else {
                append_char_checked(out, /*allow_newline=*/false);
            }
        }
    }

    std::string parse_literal_string() {
        ++pos_;  // '\''
        std::string out;
        for (;;) {
            if (at_end()) fail("string is not closed with \"'\"");
            if (peek() == '\'') {
                ++pos_;
                return out;
            }
            append_char_checked(out, /*allow_newline=*/false);
        }
    }

    std::string parse_multiline_basic_string() {
        const int start_line = line_;
        pos_ += 3;
        take_newline();  // a newline right after the opening quotes is trimmed
        std::string out;
        for (;;) {
            if (at_end()) fail_at(start_line, "multi-line string is not closed with '\"\"\"'");
            if (starts_with("\"\"\"")) {
                // Up to two quotes may sit right before the closing delimiter.
                std::size_t quotes = 3;
                while (quotes < 5 && peek(quotes) == '"') ++quotes;
                out.append(quotes - 3, '"');
                pos_ += quotes;
                return out;
            }
            if (peek() == '\\') {
                // A backslash at the end of a line trims the newline and the following whitespace.
                std::size_t ahead = 1;
                while (peek(ahead) == ' ' || peek(ahead) == '\t') ++ahead;
                if (peek(ahead) == '\n' || (peek(ahead) == '\r' && peek(ahead + 1) == '\n')) {
                    pos_ += ahead;
                    for (;;) {
                        skip_spaces();
                        if (!take_newline()) break;
                    }
                    continue;
                }
                parse_escape(out);
                continue;
            }
            append_char_checked(out, /*allow_newline=*/true);
        }
    }

    std::string parse_multiline_literal_string() {
        const int start_line = line_;
        pos_ += 3;
        take_newline();
        std::string out;
        for (;;) {
            if (at_end()) fail_at(start_line, "multi-line string is not closed with \"'''\"");
            if (starts_with("'''")) {
                std::size_t quotes = 3;
                while (quotes < 5 && peek(quotes) == '\'') ++quotes;
                out.append(quotes - 3, '\'');
                pos_ += quotes;
                return out;
            }
            append_char_checked(out, /*allow_newline=*/true);
        }
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    int line_ = 1;
    Value root_;
    Value *current_ = nullptr;
    int current_depth_ = 0;  // of current_: the number of keys in its [header]
    std::size_t values_ = 0;
};

}  // namespace

Value parse(std::string_view text) { return Parser(text).parse_document(); }

}  // namespace advlock::core::toml
