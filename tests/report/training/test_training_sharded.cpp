// The ring's step structure and sharded data parallelism (ZeRO-3 / FSDP: all-gather + reduce-scatter)
// against hand-computed cases.
#include <gtest/gtest.h>

#include "report/training/training_model.hpp"
#include "report/training/training_params.hpp"

using namespace gpunet::report::training;

TEST(RingSteps, StepCountAndBytesPerStep) {
  EXPECT_EQ(ring_steps(4), 6);                       // 2(n-1)
  EXPECT_DOUBLE_EQ(ring_step_bytes(4, 8e6), 2e6);    // S/n
  EXPECT_EQ(ring_steps(1), 0);
  EXPECT_TRUE(ring_neighbours_coincide(2));   // left and right neighbour are the same rank
  EXPECT_FALSE(ring_neighbours_coincide(3));
}

TEST(RingSteps, HalfRingIsNMinusOneSteps) {
  // (n-1)·alpha + (n-1)/n·S·beta, n = 4, alpha = 1 ms, S = 4 GB, beta = 1 ns/B: 3 ms + 3 s.
  EXPECT_NEAR(ring_half_s({1e-3, 1e-9}, 4, 4e9), 3.003, 1e-12);
  // A reduce-scatter plus an all-gather is the all-reduce.
  EXPECT_NEAR(2 * ring_half_s({1e-3, 1e-9}, 4, 4e9), ring_allreduce_s({1e-3, 1e-9}, 4, 4e9), 1e-12);
}

TEST(Sharded, FullShardingMovesOneAndAHalfTimesTheAllReduce) {
  // G = 4 GB in 2 buckets of 2 GB, n = 4, alpha = 1 ms, beta = 1 ns/B.
  // Per bucket one half ring: 3·1 ms + 3/4·2e9·1e-9 = 1.503 s.
  // Forward: all-gather per bucket = 2 × 1.503 = 3.006 s; backward: all-gather + reduce-scatter = 6.012 s.
  const AlphaBeta m{1e-3, 1e-9};
  const auto c = fully_sharded_comm(m, 4, 4e9, 2e9);
  EXPECT_NEAR(c.forward_s, 3.006, 1e-9);
  EXPECT_NEAR(c.backward_s, 6.012, 1e-9);
  // DDP's bucketed all-reduce: 2 × (6·1 ms + 2·3/4·2e9·1e-9) = 2 × 3.006 = 6.012 s; sharding's bandwidth term
  // is 1.5x (9 s against 6 s).
  EXPECT_NEAR(bucketed_allreduce_s(m, 4, 4e9, 2e9), 6.012, 1e-9);
  EXPECT_NEAR(step_comm_s(Sharding::full, m, 4, 4e9, 2e9), 9.018, 1e-9);
  EXPECT_NEAR(step_comm_s(Sharding::none, m, 4, 4e9, 2e9), 6.012, 1e-9);
}

TEST(Sharded, StepOverlapsForwardAndBackwardSeparately) {
  // alpha = 0, beta = 1 ns/B, n = 4, G = 4 GB in one bucket: comm = 3·3/4·4 = 9 s (forward 3, backward 6).
  // compute 3 s, f = 2/3: forward hides 1 s (2 s exposed), backward hides 2 s (4 s exposed): step 9 s.
  const auto e = estimate_sharded_step({0, 1e-9}, 4, 4e9, 4e9, 3.0);
  EXPECT_DOUBLE_EQ(e.bytes_per_node, 9e9);
  EXPECT_NEAR(e.comm_s, 9.0, 1e-9);
  EXPECT_NEAR(e.model_s, 9.0, 1e-9);
  EXPECT_NEAR(e.no_overlap_s, 12.0, 1e-9);
  EXPECT_NEAR(e.perfect_overlap_s, 9.0, 1e-9);
  EXPECT_NEAR(e.wait_model, 6.0 / 9.0, 1e-12);
  EXPECT_NEAR(e.scaling_efficiency, 3.0 / 9.0, 1e-12);
  // Compute 12 s hides all: forward 3 <= 4, backward 6 <= 8.
  EXPECT_NEAR(estimate_sharded_step({0, 1e-9}, 4, 4e9, 4e9, 12.0).model_s, 12.0, 1e-9);
  // Same numbers through the dispatcher; "none" is DDP's estimate.
  EXPECT_NEAR(estimate(Sharding::full, {0, 1e-9}, 4, 4e9, 4e9, 3.0).model_s, 9.0, 1e-9);
  EXPECT_NEAR(estimate(Sharding::none, {0, 1e-9}, 4, 4e9, 4e9, 3.0).comm_s, 6.0, 1e-9);
}

TEST(Sharded, NodeCountWhereCommunicationExceedsCompute) {
  // alpha = 0, beta = 1 ns/B, G = 4 GB, compute 5 s. DDP: 2(n-1)/n·4 s > 5 first at n = 3 (5.33 s; n = 2: 4 s).
  // Full sharding: 3(n-1)/n·4 s > 5 first at n = 2 (6 s).
  EXPECT_EQ(nodes_where_comm_exceeds_compute({0, 1e-9}, 4e9, 4e9, 5.0, 64, Sharding::none), 3);
  EXPECT_EQ(nodes_where_comm_exceeds_compute({0, 1e-9}, 4e9, 4e9, 5.0, 64, Sharding::full), 2);
}

TEST(Sharded, NamesRoundTrip) {
  EXPECT_EQ(sharding_from_string("full"), Sharding::full);
  EXPECT_EQ(sharding_from_string("none"), Sharding::none);
  EXPECT_FALSE(sharding_from_string("zero3").has_value());
  EXPECT_EQ(to_string(Sharding::full), "full");
}
