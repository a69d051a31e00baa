#include <gtest/gtest.h>

#include "report/document/suite_times.hpp"

namespace gpunet::report {
namespace {

TEST(SuiteTimes, PlannedBesideActualAndReadBack) {
  Report rep;
  set_suite_times(rep, {{"tcp", 13, 15.2}, {"topo", -1, 0.31}, {"mpi", 250, 262}});
  const auto back = suite_times_of(rep);
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[1].planned_s, -1);
  EXPECT_EQ(suite_times_text(back), "tcp planned 13s, took 15s; topo took 0.3s (not estimated); mpi planned 4m10s, took 4m22s");
}

TEST(SuiteTimes, AStoredReportWithoutOrWithOddEntriesGivesWhatIsReadable) {
  Report rep;
  EXPECT_EQ(suite_times_text(suite_times_of(rep)), "");
  rep.extra["suite_times"] = gpunet::json::array({gpunet::json{{"suite", "tcp"}, {"actual_s", -3}}, gpunet::json{{"suite", 5}},
                                                    gpunet::json{{"suite", "mpi"}, {"actual_s", 2}, {"planned_s", nullptr}}});
  EXPECT_EQ(suite_times_text(suite_times_of(rep)), "mpi took 2.0s (not estimated)");
}

}  // namespace
}  // namespace gpunet::report
