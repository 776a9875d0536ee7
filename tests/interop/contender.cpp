// Interop contender in C++ over advlock.hpp (tests/interop/interop.py runs
// it); the same protocol as contender.py:
//   interop_contender keys SPEC...
//   interop_contender contend URL SPEC LOG ROUNDS HOLD_MS
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <unistd.h>

#include "advlock.hpp"

namespace {

advlock::key key_of(const std::string &spec) {
    const std::string kind = spec.substr(0, spec.find(':')), rest = spec.substr(spec.find(':') + 1);
    if (kind == "name") return advlock::key::from_name(rest);
    return advlock::key::pair(std::stoi(rest.substr(0, rest.find(':'))), std::stoi(rest.substr(rest.find(':') + 1)));
}

long long now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) return 64;
    const std::string command = argv[1];
    if (command == "keys") {
        for (int i = 2; i < argc; ++i) std::cout << argv[i] << "\t" << key_of(argv[i]).to_string() << "\n";
        return 0;
    }
    if (argc < 7) return 64;
    const int rounds = std::stoi(argv[5]), hold_ms = std::stoi(argv[6]);
    advlock::session_options options;
    options.application_name = "interop-cpp";
    advlock::session session = advlock::session::open(argv[2], options);
    std::ofstream out(argv[4], std::ios::app);
    for (int i = 0; i < rounds; ++i) {
        std::optional<advlock::lock> held = session.lock_within(key_of(argv[3]), advlock::wait_forever);
        out << "E " << now_ns() << " cpp " << ::getpid() << std::endl;
        std::this_thread::sleep_for(std::chrono::milliseconds(hold_ms));
        out << "X " << now_ns() << " cpp " << ::getpid() << std::endl;
        held->release();
    }
    return 0;
}
