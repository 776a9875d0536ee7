// Running the real advlock binary from a test: its exit code and output, its
// status --json parsed, and a lock name of the test's own. Shared by the cli
// test files.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/child_process.hpp"

namespace advlock::test {

inline const std::string kAdvlock = ADVLOCK_CLI;

struct Outcome {
    int code;
    std::string output;  // stdout and stderr together
};

inline Outcome advlock_cli(std::vector<std::string> args) {
    args.insert(args.begin(), kAdvlock);
    ChildProcess child(args, /*merge_stderr=*/true);
    std::string output = child.read_all();
    return {child.wait(), output};
}

// A unique lock name per test.
inline std::string job_name() {
    return std::string("cli.") + ::testing::UnitTest::GetInstance()->current_test_info()->name();
}

// advlock status ARGS --json, parsed: its stdout must be one JSON document
// (stderr, not parsed, goes to the test's).
inline nlohmann::json status_json(std::vector<std::string> args) {
    args.insert(args.begin(), {kAdvlock, "status"});
    args.push_back("--json");
    ChildProcess child(args);
    const std::string output = child.read_all();
    EXPECT_EQ(child.wait(), 0) << output;
    try {
        return nlohmann::json::parse(output);  // strict: refuses invalid UTF-8 too
    } catch (const nlohmann::json::exception &e) {
        ADD_FAILURE() << e.what() << " in: " << output;
        return nullptr;
    }
}

// The holder of key in holders (an array of status --json), or null.
inline nlohmann::json holder_of(const nlohmann::json &status, const std::string &key) {
    for (const nlohmann::json &holder : status.at("holders")) {
        if (holder.at("key") == key) return holder;
    }
    ADD_FAILURE() << "no holder of " << key << " in " << status.dump();
    return nullptr;
}

inline std::string write_file(const std::string &name, const std::string &text) {
    const std::string path = ::testing::TempDir() + name;
    std::ofstream(path) << text;
    return path;
}

}  // namespace advlock::test
