// Text from outside made safe to print: the core's one escaper, for the
// programs (the CLI first) that print lock names and holders themselves.
#include "entry_point.hpp"
#include "text/message_text.hpp"

using advlock::capi::allocated_copy;
using advlock::capi::guarded;
using advlock::capi::require;
namespace core = advlock::core;

extern "C" {

advlock_status advlock_text_printable(char **out, const char *text, size_t text_len, size_t max_bytes) {
    if (out) *out = nullptr;
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(text, function, "text");
        *out = allocated_copy(core::printable({text, advlock::capi::string_length(text, text_len)}, max_bytes));
        return ADVLOCK_OK;
    });
}

}  // extern "C"
