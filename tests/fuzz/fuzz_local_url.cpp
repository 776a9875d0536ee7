// Fuzz the local lock URL parser. Properties: a URL is refused only with
// InvalidArgument, whose message is valid UTF-8; a parsed URL names an
// absolute directory without a trailing slash (but "/"), and parsing it again
// from local:DIRECTORY gives the same directory.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "error.hpp"
#include "local/local_url.hpp"
#include "text/utf8.hpp"

using namespace advlock::core;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    if (!is_local_url(text)) return 0;
    try {
        const LocalUrl url = parse_local_url(text);
        const std::string &dir = url.directory;
        if (dir.empty() || dir[0] != '/' || (dir.size() > 1 && dir.back() == '/')) std::abort();
        if (dir.find('?') == std::string::npos && parse_local_url("local:" + dir).directory != dir) std::abort();
        if (url.is_default != (dir == kDefaultLocalLockDirectory)) std::abort();
    } catch (const InvalidArgument &e) {
        if (!is_valid_utf8(e.what())) std::abort();
    }
    return 0;
}
