// Reading a small text file whole, with errors that name the file, what it was
// for, and the system's reason.
#pragma once

#include <cstddef>
#include <string>

namespace advlock::core {

// what: "registry file", "config file"... Throws IoError when the path cannot
// be read (missing, no permission), is not a regular file (a directory, a FIFO,
// a device: refused at once, never read) or is larger than max_bytes.
std::string read_small_file(const std::string &path, const std::string &what, std::size_t max_bytes);

}  // namespace advlock::core
