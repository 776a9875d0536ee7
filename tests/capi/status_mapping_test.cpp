// Every core error maps to its status, message and SQLSTATE at the C boundary;
// anything else maps to ADVLOCK_ENOMEM or ADVLOCK_ERROR; advlock.hpp turns each
// status back into its own exception type.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>

#include "advlock.hpp"
#include "entry_point.hpp"
#include "error.hpp"

using namespace advlock;

namespace {

template <typename CoreError>
void expect_maps_to(advlock_status expected) {
    const advlock_status status =
        capi::guarded("advlock_test", [&](const char *) -> advlock_status { throw CoreError("what happened", "12345"); });
    EXPECT_EQ(status, expected) << advlock_status_name(expected);
    EXPECT_EQ(advlock_error_last()->status, expected);
    EXPECT_STREQ(advlock_error_last()->message, "what happened");
    EXPECT_STREQ(advlock_error_last()->sqlstate, "12345");
}

// Every status the C header pins, errors first.
const advlock_status kErrorStatuses[] = {
    ADVLOCK_ERROR,     ADVLOCK_ENOMEM,     ADVLOCK_EINVAL,    ADVLOCK_EKEY,       ADVLOCK_EREGISTRY,
    ADVLOCK_ENOTFOUND, ADVLOCK_EIO,        ADVLOCK_EMISUSE,   ADVLOCK_ECONNECT,   ADVLOCK_ESTANDBY,
    ADVLOCK_EREADONLY, ADVLOCK_EPOOLER,    ADVLOCK_ELOST,     ADVLOCK_ECANCELED,  ADVLOCK_ECAPACITY,
    ADVLOCK_EDEADLOCK, ADVLOCK_EPERMISSION, ADVLOCK_ESERVER,  ADVLOCK_EUNSUPPORTED, ADVLOCK_ECONFIG,
    ADVLOCK_ECLUSTER,  ADVLOCK_EUNSAFEDIR, ADVLOCK_EFENCED};

}  // namespace

TEST(StatusMapping, EveryCoreErrorMapsToItsStatus) {
    expect_maps_to<core::InvalidArgument>(ADVLOCK_EINVAL);
    expect_maps_to<core::BadKey>(ADVLOCK_EKEY);
    expect_maps_to<core::RegistryError>(ADVLOCK_EREGISTRY);
    expect_maps_to<core::NotFound>(ADVLOCK_ENOTFOUND);
    expect_maps_to<core::IoError>(ADVLOCK_EIO);
    expect_maps_to<core::Misuse>(ADVLOCK_EMISUSE);
    expect_maps_to<core::ConnectError>(ADVLOCK_ECONNECT);
    expect_maps_to<core::StandbyTarget>(ADVLOCK_ESTANDBY);
    expect_maps_to<core::ReadOnlyTarget>(ADVLOCK_EREADONLY);
    expect_maps_to<core::PoolerTarget>(ADVLOCK_EPOOLER);
    expect_maps_to<core::LockLost>(ADVLOCK_ELOST);
    expect_maps_to<core::Canceled>(ADVLOCK_ECANCELED);
    expect_maps_to<core::CapacityError>(ADVLOCK_ECAPACITY);
    expect_maps_to<core::Deadlock>(ADVLOCK_EDEADLOCK);
    expect_maps_to<core::PermissionDenied>(ADVLOCK_EPERMISSION);
    expect_maps_to<core::ServerError>(ADVLOCK_ESERVER);
    expect_maps_to<core::Unsupported>(ADVLOCK_EUNSUPPORTED);
    expect_maps_to<core::ConfigError>(ADVLOCK_ECONFIG);
    expect_maps_to<core::ClusterTarget>(ADVLOCK_ECLUSTER);
    expect_maps_to<core::UnsafeLockDirectory>(ADVLOCK_EUNSAFEDIR);
    expect_maps_to<core::FencedOut>(ADVLOCK_EFENCED);
}

TEST(StatusMapping, ForeignExceptionsBecomeNoMemoryOrInternalError) {
    EXPECT_EQ(capi::guarded("advlock_f", [](const char *) -> advlock_status { throw std::bad_alloc(); }), ADVLOCK_ENOMEM);
    EXPECT_STREQ(advlock_error_last()->message, "advlock_f: out of memory");

    EXPECT_EQ(capi::guarded("advlock_f", [](const char *) -> advlock_status { throw std::logic_error("oops"); }), ADVLOCK_ERROR);
    EXPECT_NE(std::string(advlock_error_last()->message).find("internal error"), std::string::npos);
    EXPECT_NE(std::string(advlock_error_last()->message).find("oops"), std::string::npos);
    EXPECT_STREQ(advlock_error_last()->sqlstate, "");

    EXPECT_EQ(capi::guarded("advlock_f", [](const char *) -> advlock_status { throw 42; }), ADVLOCK_ERROR);
    EXPECT_NE(std::string(advlock_error_last()->message).find("unknown exception"), std::string::npos);
}

TEST(StatusMapping, SuccessLeavesTheLastErrorAlone) {
    capi::set_last_error(ADVLOCK_EKEY, "earlier");
    EXPECT_EQ(capi::guarded("advlock_f", [](const char *) { return ADVLOCK_NOT_ACQUIRED; }), ADVLOCK_NOT_ACQUIRED);
    EXPECT_EQ(advlock_error_last()->status, ADVLOCK_EKEY);
    advlock_error_clear();
    EXPECT_EQ(advlock_error_last()->status, ADVLOCK_OK);
    EXPECT_STREQ(advlock_error_last()->message, "no error");
}

TEST(StatusMapping, LastErrorIsPerThread) {
    capi::set_last_error(ADVLOCK_ELOST, "main thread's error");
    std::string seen_elsewhere;
    std::thread([&] { seen_elsewhere = advlock_error_last()->message; }).join();
    EXPECT_EQ(seen_elsewhere, "no error");
    EXPECT_STREQ(advlock_error_last()->message, "main thread's error");
}

TEST(StatusNames, AreDistinctAndNamedAfterTheEnum) {
    std::set<std::string> names = {advlock_status_name(ADVLOCK_OK), advlock_status_name(ADVLOCK_NOT_ACQUIRED)};
    for (const advlock_status status : kErrorStatuses) {
        EXPECT_LT(status, 0);
        const std::string name = advlock_status_name(status);
        EXPECT_EQ(name.rfind("ADVLOCK_", 0), 0u);
        EXPECT_TRUE(names.insert(name).second) << name << " repeats";
    }
    EXPECT_EQ(names.size(), 2 + sizeof kErrorStatuses / sizeof kErrorStatuses[0]);
    EXPECT_STREQ(advlock_status_name(static_cast<advlock_status>(-999)), "ADVLOCK_UNKNOWN_STATUS");
}

TEST(StatusNames, PinnedValuesNeverChange) {
    // Append-only: these numbers are part of the ABI.
    EXPECT_EQ(ADVLOCK_OK, 0);
    EXPECT_EQ(ADVLOCK_NOT_ACQUIRED, 1);
    EXPECT_EQ(ADVLOCK_ERROR, -1);
    EXPECT_EQ(ADVLOCK_EKEY, -4);
    EXPECT_EQ(ADVLOCK_ECONNECT, -9);
    EXPECT_EQ(ADVLOCK_ELOST, -13);
    EXPECT_EQ(ADVLOCK_EUNSUPPORTED, -19);
    EXPECT_EQ(ADVLOCK_ECONFIG, -20);
    EXPECT_EQ(ADVLOCK_EFENCED, -23);
}

TEST(StatusNames, UnsafeTargetsAreGrouped) {
    for (const advlock_status status : kErrorStatuses) {
        const bool unsafe = status == ADVLOCK_ESTANDBY || status == ADVLOCK_EREADONLY || status == ADVLOCK_EPOOLER ||
                            status == ADVLOCK_ECLUSTER || status == ADVLOCK_EUNSAFEDIR;
        EXPECT_EQ(advlock_status_is_unsafe_target(status), unsafe ? 1 : 0) << advlock_status_name(status);
    }
}

namespace {

template <typename Expected>
void expect_hpp_throws(advlock_status status) {
    capi::set_last_error(status, "the message", "40P01");
    try {
        detail::throw_status(status);
        ADD_FAILURE() << "nothing thrown for " << advlock_status_name(status);
    } catch (const Expected &e) {
        EXPECT_EQ(e.status(), status);
        EXPECT_STREQ(e.what(), "the message");
        EXPECT_EQ(e.sqlstate(), "40P01");
    } catch (const std::exception &e) {
        ADD_FAILURE() << advlock_status_name(status) << " threw the wrong type: " << e.what();
    }
}

}  // namespace

TEST(HppExceptions, EveryStatusThrowsItsOwnType) {
    expect_hpp_throws<internal_error>(ADVLOCK_ERROR);
    expect_hpp_throws<out_of_memory>(ADVLOCK_ENOMEM);
    expect_hpp_throws<invalid_argument>(ADVLOCK_EINVAL);
    expect_hpp_throws<bad_key>(ADVLOCK_EKEY);
    expect_hpp_throws<registry_error>(ADVLOCK_EREGISTRY);
    expect_hpp_throws<not_found>(ADVLOCK_ENOTFOUND);
    expect_hpp_throws<io_error>(ADVLOCK_EIO);
    expect_hpp_throws<misuse>(ADVLOCK_EMISUSE);
    expect_hpp_throws<connect_error>(ADVLOCK_ECONNECT);
    expect_hpp_throws<standby_target>(ADVLOCK_ESTANDBY);
    expect_hpp_throws<read_only_target>(ADVLOCK_EREADONLY);
    expect_hpp_throws<pooler_target>(ADVLOCK_EPOOLER);
    expect_hpp_throws<lock_lost>(ADVLOCK_ELOST);
    expect_hpp_throws<canceled>(ADVLOCK_ECANCELED);
    expect_hpp_throws<capacity_error>(ADVLOCK_ECAPACITY);
    expect_hpp_throws<deadlock>(ADVLOCK_EDEADLOCK);
    expect_hpp_throws<permission_denied>(ADVLOCK_EPERMISSION);
    expect_hpp_throws<server_error>(ADVLOCK_ESERVER);
    expect_hpp_throws<unsupported>(ADVLOCK_EUNSUPPORTED);
    expect_hpp_throws<config_error>(ADVLOCK_ECONFIG);
    expect_hpp_throws<cluster_target>(ADVLOCK_ECLUSTER);
    expect_hpp_throws<unsafe_lock_directory>(ADVLOCK_EUNSAFEDIR);
    expect_hpp_throws<fenced_out>(ADVLOCK_EFENCED);
    // A fenced-out token is a loss: code that stops on lock_lost stops on it too.
    EXPECT_THROW(detail::throw_status(ADVLOCK_EFENCED), lock_lost);
    // The three unsafe targets share a base a caller can catch at once.
    EXPECT_THROW(detail::throw_status(ADVLOCK_EPOOLER), unsafe_target);
    EXPECT_THROW(detail::throw_status(ADVLOCK_EUNSAFEDIR), unsafe_target);
}

TEST(HppExceptions, NonErrorsPassThroughCheck) {
    EXPECT_EQ(detail::check(ADVLOCK_OK), ADVLOCK_OK);
    EXPECT_EQ(detail::check(ADVLOCK_NOT_ACQUIRED), ADVLOCK_NOT_ACQUIRED);
}

// The one table (advlock/status_table.h) covers every status the enum pins,
// once, with names made from it, and the classes made from it throw for it.
TEST(StatusTable, HasOneRowPerStatusWithItsNames) {
    std::set<int> seen;
    std::size_t rows = 0;
    for (const advlock_status_info *info = advlock_status_at(0); info; info = advlock_status_at(++rows)) {
        EXPECT_TRUE(seen.insert(info->status).second) << info->name << " repeats";
        EXPECT_STREQ(advlock_status_name(info->status), info->name);
        EXPECT_EQ(advlock_status_info_of(info->status), info);
        EXPECT_NE(std::string(info->kind), "");
        EXPECT_NE(std::string(info->Kind), "");
        EXPECT_NE(std::string(info->summary), "");
        const std::string parent = info->parent;
        // A kind of loss derives from lock_lost (the fenced-out token); unsafe
        // targets from unsafe_target; every other error from error.
        const std::string expected = info->status >= 0                    ? "none"
                                     : info->status == ADVLOCK_EFENCED    ? "lock_lost"
                                     : parent == "unsafe_target"          ? "unsafe_target"
                                                                          : "error";
        EXPECT_EQ(parent, expected) << info->name << " has parent " << parent;
        EXPECT_EQ(advlock_status_is_unsafe_target(info->status), parent == "unsafe_target" ? 1 : 0) << info->name;
    }
    EXPECT_EQ(rows, 2 + sizeof kErrorStatuses / sizeof kErrorStatuses[0]);
    for (const advlock_status status : kErrorStatuses) EXPECT_EQ(seen.count(status), 1u) << status;
    EXPECT_EQ(advlock_status_at(rows), nullptr);
    EXPECT_EQ(advlock_status_info_of(static_cast<advlock_status>(-999)), nullptr);
    EXPECT_STREQ(advlock_status_info_of(ADVLOCK_ELOST)->kind, "lock_lost");
    EXPECT_STREQ(advlock_status_info_of(ADVLOCK_ELOST)->Kind, "LockLost");
    EXPECT_STREQ(advlock_status_info_of(ADVLOCK_EIO)->Kind, "FileError");
}

TEST(StatusTable, TheCoresClassesCarryTheirRowsStatus) {
#define ADVLOCK_TEST_ROW(value, kind, Kind, parent, summary) \
    EXPECT_EQ(core::Kind("x").status(), value) << #Kind;     \
    expect_hpp_throws<kind>(value);
    ADVLOCK_STATUS_ERRORS(ADVLOCK_TEST_ROW)
#undef ADVLOCK_TEST_ROW
}
