#include <gtest/gtest.h>

#include "report/model/busbw.hpp"

using namespace gpunet::report;

TEST(BusBw, FactorsMatchNcclTests) {
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::allreduce, 8), 2.0 * 7 / 8);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::allreduce, 2), 1.0);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::allreduce, 1), 0.0);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::allgather, 4), 0.75);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::reduce_scatter, 4), 0.75);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::alltoall, 4), 0.75);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::broadcast, 4), 1.0);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::reduce, 4), 1.0);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::sendrecv, 4), 1.0);
}

TEST(BusBw, GigabytesAreDecimal) {
  EXPECT_DOUBLE_EQ(algbw_GBps(1'000'000'000, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(algbw_GBps(64LL << 20, 0.01), 6.7108864);
  EXPECT_DOUBLE_EQ(busbw_GBps(Collective::allreduce, 1'000'000'000, 0.5, 4), 2.0 * 1.5);
  EXPECT_DOUBLE_EQ(algbw_GBps(100, 0.0), 0.0);
}

TEST(BusBw, NamesRoundTrip) {
  for (auto c : {Collective::allreduce, Collective::allgather, Collective::reduce_scatter, Collective::broadcast,
                 Collective::reduce, Collective::alltoall, Collective::sendrecv})
    EXPECT_EQ(collective_from_string(to_string(c)), c);
  EXPECT_FALSE(collective_from_string("all_reduce_typo").has_value());
}
