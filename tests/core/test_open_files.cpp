// The open-file limit at start (bench/core/open_files): what rank 0 needs for a job of N ranks, the
// one line when the limit cannot hold it, and raising the soft limit to the hard one.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include "bench/core/open_files.hpp"

namespace gpunet::bench {
namespace {

TEST(OpenFiles, RankZeroNeedsAConnectionPerRankAndAMargin) {
  EXPECT_EQ(open_files_needed(24), 24u + kOpenFilesMargin);
  EXPECT_EQ(open_files_needed(4096), 4096u + kOpenFilesMargin);
  EXPECT_EQ(open_files_needed(1), 1u + kOpenFilesMargin);
}

TEST(OpenFiles, ALimitThatHoldsTheJobIsNoProblem) {
  EXPECT_FALSE(open_file_limit_problem({64, 64}, 24)) << "24 ranks start under a 64-file limit";
  EXPECT_FALSE(open_file_limit_problem({56, 56}, 24));
  EXPECT_FALSE(open_file_limit_problem({UINT64_MAX, UINT64_MAX}, 100000));
}

TEST(OpenFiles, ATooLowLimitIsOneLineNamingItAndWhatToDo) {
  const auto why = open_file_limit_problem({40, 40}, 24);
  ASSERT_TRUE(why);
  EXPECT_EQ(*why,
            "open-file limit 40 is below the 24 ranks' control connections + 32: raise it (ulimit -n 4096 before mpirun; "
            "the hard limit is 40)");
  EXPECT_TRUE(open_file_limit_problem({55, 55}, 24));
  // 4,096 ranks under the common soft limit of 1,024 (a hard limit that is higher was raised to already).
  const auto big = open_file_limit_problem({1024, 1024}, 4096);
  ASSERT_TRUE(big);
  EXPECT_NE(big->find("ulimit -n 8192"), std::string::npos) << *big;
  EXPECT_EQ(big->find('\n'), std::string::npos);
}

TEST(OpenFiles, RaisesTheSoftLimitToTheHardLimit) {
  rlimit before{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &before), 0);
  if (before.rlim_max == RLIM_INFINITY || before.rlim_max < 64) GTEST_SKIP() << "no finite hard limit to test against";
  rlimit low = before;
  low.rlim_cur = 64;
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
  const OpenFileLimit got = raise_open_file_limit();
  EXPECT_EQ(got.soft, static_cast<uint64_t>(before.rlim_max));
  EXPECT_EQ(got.hard, static_cast<uint64_t>(before.rlim_max));
  rlimit after{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &after), 0);
  EXPECT_EQ(after.rlim_cur, before.rlim_max);
  ::setrlimit(RLIMIT_NOFILE, &before);
}

}  // namespace
}  // namespace gpunet::bench
