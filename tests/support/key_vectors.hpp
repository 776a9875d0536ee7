// The shared key-derivation vectors (tests/data/key-vectors.json, a copy of
// the project's shared/key-vectors.json), loaded for any test that checks them.
#pragma once

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace advlock::test {

struct NameVector {
    std::string name;
    std::int64_t advlock;
    std::int32_t compat_k1, compat_k2;            // prefix 0
    std::int32_t compat42_k1, compat42_k2;        // prefix 42
};

struct PgLocksVector {
    bool is_pair;
    std::int64_t bigint;
    std::int32_t k1, k2;
    std::uint32_t classid, objid;
    std::int32_t objsubid;
};

struct KeyVectors {
    std::string sql_expression;  // with NAME where the name goes
    std::vector<NameVector> names;
    std::vector<PgLocksVector> pg_locks;
};

inline KeyVectors load_key_vectors() {
    const std::string path = std::string(ADVLOCK_TEST_DATA_DIR) + "/key-vectors.json";
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    const nlohmann::json json = nlohmann::json::parse(in);
    KeyVectors vectors;
    vectors.sql_expression = json.at("sql_expression_for_advlock_scheme").get<std::string>();
    for (const auto &v : json.at("names")) {
        vectors.names.push_back({v.at("name").get<std::string>(), v.at("advlock").get<std::int64_t>(),
                                 v.at("with_advisory_lock")[0].get<std::int32_t>(),
                                 v.at("with_advisory_lock")[1].get<std::int32_t>(),
                                 v.at("with_advisory_lock_prefix_42")[0].get<std::int32_t>(),
                                 v.at("with_advisory_lock_prefix_42")[1].get<std::int32_t>()});
    }
    for (const auto &v : json.at("pg_locks")) {
        PgLocksVector row{};
        row.is_pair = v.contains("pair");
        if (row.is_pair) {
            row.k1 = v.at("pair")[0].get<std::int32_t>();
            row.k2 = v.at("pair")[1].get<std::int32_t>();
        } else {
            row.bigint = v.at("bigint").get<std::int64_t>();
        }
        row.classid = v.at("classid").get<std::uint32_t>();
        row.objid = v.at("objid").get<std::uint32_t>();
        row.objsubid = v.at("objsubid").get<std::int32_t>();
        vectors.pg_locks.push_back(row);
    }
    if (vectors.names.empty() || vectors.pg_locks.empty()) throw std::runtime_error(path + " holds no vectors");
    return vectors;
}

}  // namespace advlock::test
