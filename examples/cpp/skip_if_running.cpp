#include <advlock.hpp>
#include <chrono>
#include <iostream>
#include <string>
#include <thread>

int main(int argc, char **argv) try {  // skip_if_running++ URL [SECONDS]
    advlock::session session = advlock::session::open(argc > 1 ? argv[1] : "");
    std::optional<advlock::lock> lock = session.try_lock(advlock::key::from_name("daily_sales"));
    if (!lock) {
        std::cout << "daily_sales: already running elsewhere, skipping\n";
        return 3;
    }
    std::cout << "daily_sales: holding the lock, working" << std::endl;
    std::this_thread::sleep_for(std::chrono::seconds(argc > 2 ? std::stoi(argv[2]) : 1));  // the real work
    lock->release();  // also released at scope exit; release() reports a lost lock
    return 0;
} catch (const advlock::error &e) {
    std::cerr << "advlock: " << e.what() << '\n';
    return 1;
}
