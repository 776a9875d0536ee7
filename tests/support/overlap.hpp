// Threads taking one lock and counting who is inside: the overlap check of
// the one-lock-one-owner tests, for every backend (a key, or a MySQL name).
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "advlock.h"
#include "support/c_handles.hpp"

namespace advlock::test {

// Each worker thread uses sessions[thread % sessions] and loops: acquire
// (waiting, or trying until it gets it), check nobody conflicting is inside,
// stay a moment, leave, release.
struct Overlap {
    std::atomic<int> exclusive_inside{0}, shared_inside{0}, violations{0}, entries{0};
};

inline void work(const Session &session, const advlock_key &key, advlock_mode mode, bool by_trying, int rounds,
                 Overlap &overlap, const std::string *name = nullptr) {
    for (int round = 0; round < rounds; ++round) {
        Lock lock;
        for (;;) {
            const advlock_status status =
                acquire(&lock, session, key, mode, by_trying ? 0 : ADVLOCK_WAIT_FOREVER, false, nullptr, name);
            if (status == ADVLOCK_OK) break;
            ASSERT_EQ(status, ADVLOCK_NOT_ACQUIRED) << advlock_error_last()->message;
            ASSERT_TRUE(by_trying) << "a wait without limit came back empty";
            std::this_thread::yield();
        }
        if (mode == ADVLOCK_EXCLUSIVE) {
            if (overlap.exclusive_inside.fetch_add(1) != 0 || overlap.shared_inside.load() != 0) ++overlap.violations;
        } else {
            overlap.shared_inside.fetch_add(1);
            if (overlap.exclusive_inside.load() != 0) ++overlap.violations;
        }
        ++overlap.entries;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        if (mode == ADVLOCK_EXCLUSIVE) {
            overlap.exclusive_inside.fetch_sub(1);
        } else {
            overlap.shared_inside.fetch_sub(1);
        }
        ASSERT_EQ(advlock_lock_release(lock.get()), ADVLOCK_OK) << advlock_error_last()->message;
    }
}

}  // namespace advlock::test
