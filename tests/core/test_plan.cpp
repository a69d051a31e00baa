// The run's plan before anything is measured (bench/core/plan, bench/suites/tcp/plan): durations as
// the console shows them, the line's parts and what it says it did not estimate, the tcp matrix's
// 2(N-1) rounds.
#include <gtest/gtest.h>

#include "bench/core/plan.hpp"
#include "bench/suites/nccl/suite.hpp"
#include "bench/suites/tcp/plan.hpp"
#include "gpunet/build_config.h"
#include "report/text/text_format.hpp"

namespace gpunet::bench {
namespace {

TEST(Plan, DurationsReadLikeTheIssueAsks) {
  EXPECT_EQ(report::format_duration(0), "0s");
  EXPECT_EQ(report::format_duration(35), "35s");
  EXPECT_EQ(report::format_duration(250), "4m10s");
  EXPECT_EQ(report::format_duration(3720), "1h02m");
}

TEST(Plan, SumsTheEstimatedPartsAndNamesTheRest) {
  PlanPart tcp{"16 participants: 30 bandwidth rounds", 66, "re-tests of matrix suspects"};
  const std::string line = plan_line({{"topo", PlanPart{}}, {"tcp", tcp}, {"mpi", PlanPart{"5 collectives", 4.5, ""}}});
  EXPECT_EQ(line,
            "# plan: tcp 16 participants: 30 bandwidth rounds = 1m06s, mpi 5 collectives = 5s; estimated 1m11s "
            "(an estimate, start-up excluded; not estimated: topo, tcp re-tests of matrix suspects)");
  EXPECT_EQ(plan_line({}), "# plan: no suite estimated; estimated 0s (an estimate, start-up excluded)");
}

TEST(Plan, TheTcpMatrixRunsTwoRoundsPerCircleRound) {
  TcpConfig c;
  c.tests = {"matrix"};
  c.matrix_one_way = true;
  EXPECT_EQ(tcp::tcp_steps(c, 16).bandwidth, 2 * 15) << "2(N-1) for even N";
  EXPECT_EQ(tcp::tcp_steps(c, 5).bandwidth, 2 * 5) << "N rounds, one idle each, for odd N";
  c.matrix_one_way = false;  // the default: both directions at once
  EXPECT_EQ(tcp::tcp_steps(c, 16).bandwidth, 15);
  EXPECT_EQ(tcp::tcp_participants(16, 128), 16);
  EXPECT_EQ(tcp::tcp_participants(1, 4), 4) << "on one node every rank takes part";
}

TEST(Plan, TheTcpPartCostsEachRoundItsFlowTimeAndSetUp) {
  Config c;
  c.tcp.tests = {"matrix"};
  c.tcp.time_s = 0.5;
  const PlanPart p = tcp::tcp_plan(c, 16, 16);
  EXPECT_DOUBLE_EQ(p.seconds, 15 * (0.5 + 0.2));
  EXPECT_EQ(p.left_out, "re-tests of matrix suspects (at most 4 rounds)");
  c.tcp.duration_s = 60;
  EXPECT_LT(tcp::tcp_plan(c, 16, 16).seconds, 0) << "--duration is not estimated";
}

TEST(Plan, ASpecPromisingTcpLatencyMeasuresEveryPairAndTheLineSaysSo) {
  Config c;
  c.tcp.tests = {"latency"};
  EXPECT_EQ(tcp::tcp_steps(c.tcp, 4).latency, 2) << "ring neighbours of 4: 2 rounds of 2 pairs";
  EXPECT_EQ(tcp::tcp_plan(c, 4, 4).what.find("every pair"), std::string::npos);
  c.tcp.latency_every_pair = true;
  EXPECT_EQ(tcp::tcp_steps(c.tcp, 4).latency, 3) << "every pair of 4: 3 rounds of 2 pairs";
  EXPECT_EQ(pair_count(tcp::latency_rounds(true, 4)), 6);
  EXPECT_EQ(pair_count(tcp::latency_rounds(false, 4)), 4);
  const PlanPart p = tcp::tcp_plan(c, 4, 4);
  EXPECT_NE(p.what.find(", latency on every pair (the spec promises it for every pair)"), std::string::npos) << p.what;
  EXPECT_DOUBLE_EQ(p.seconds, 3 * (1.0 + 0.2));
}

// The GPU check's sweep (ci/gpu-check.sh: 7 collectives, -b 8K -e 256M -f 4, --budget 0.05): 8 sizes,
// alltoall and sendrecv out of place only, so 96 points and 4.8 s; the buffers' filling and checking
// (most of the 32 s that sweep took on an H200) is named as not estimated.
TEST(Plan, TheNcclSweepCountsEachPlacement) {
  Config c;
  c.nccl_collectives = {"allreduce", "allgather", "reduce_scatter", "broadcast", "reduce", "alltoall", "sendrecv"};
  c.min_bytes = 8 << 10;
  c.max_bytes = 256 << 20;
  c.step_factor = 4;
  c.budget_s = 0.05;
  const PlanPart p = nccl_plan(c, 1, 1);
  if (!GPUNET_HAVE_CUDA) {
    EXPECT_EQ(p.what, "skipped (built without CUDA)");
    EXPECT_DOUBLE_EQ(p.seconds, 0);
    return;
  }
  EXPECT_DOUBLE_EQ(p.seconds, 96 * 0.05);
  EXPECT_EQ(p.what, "96 points (7 collectives x 8 sizes, in and out of place) x 0.05s budget");
  EXPECT_NE(p.left_out.find("buffer filling and checking on the host"), std::string::npos);
  c.check = 0;
  c.nccl_collectives = {"alltoall"};
  EXPECT_DOUBLE_EQ(nccl_plan(c, 1, 1).seconds, 8 * 0.05);
  EXPECT_EQ(nccl_plan(c, 1, 1).left_out, "communicator set-up");
}

}  // namespace
}  // namespace gpunet::bench
