// The training-impact model against hand-computed cases: the ring all-reduce formula, the alpha-beta
// fit, the bucketed step and the projection to other link speeds, including the worked example
// "7 B parameters, 0.5 s/step, 4 nodes, 9.4 Gb/s: ~97 % waiting; 100 GbE at the same efficiency: ~78 %".
#include <cmath>

#include <gtest/gtest.h>

#include "report/training/training_model.hpp"

using namespace gpunet::report::training;

namespace {

// 9.4 Gb/s measured: beta = 8 / 9.4e9 seconds per byte.
constexpr double kBeta10G = 8 / 9.4e9;

std::vector<TimedPoint> synthetic(const AlphaBeta& m, std::vector<int> ns, double from, double to) {
  std::vector<TimedPoint> pts;
  for (int n : ns)
    for (double s = from; s <= to; s *= 4) pts.push_back({n, s, ring_allreduce_s(m, n, s)});
  return pts;
}

}  // namespace

TEST(RingModel, BytesPerRankIsTwiceNMinusOneOverN) {
  EXPECT_DOUBLE_EQ(ring_bytes_per_rank(4, 14e9), 21e9);  // 2·3/4 × 14 GB
  EXPECT_DOUBLE_EQ(ring_bytes_per_rank(2, 1e6), 1e6);
  EXPECT_EQ(ring_bytes_per_rank(1, 1e6), 0);
}

TEST(RingModel, TimeIsLatencyStepsPlusBytesOverBandwidth) {
  // 2(n-1)·alpha + 2(n-1)/n·S·beta with n = 4, alpha = 10 us, S = 1 MB, beta = 1 ns/B: 60 us + 1.5 ms.
  EXPECT_NEAR(ring_allreduce_s({10e-6, 1e-9}, 4, 1e6), 60e-6 + 1.5e-3, 1e-12);
  EXPECT_EQ(ring_allreduce_s({10e-6, 1e-9}, 1, 1e6), 0);
}

TEST(WorkedExample, SevenBillionParametersOnFourNodesOf10GbE) {
  const double grad = 7e9 * kBf16Bytes;  // 14 GB of bf16 gradients
  EXPECT_DOUBLE_EQ(grad, 14e9);
  const auto e = estimate_step({0, kBeta10G}, 4, grad, kDdpBucketBytes, 0.5);
  EXPECT_DOUBLE_EQ(e.bytes_per_node, 21e9);
  EXPECT_NEAR(e.comm_s, 21e9 * 8 / 9.4e9, 1e-9);  // 17.87 s
  EXPECT_NEAR(e.comm_s, 17.87, 0.01);
  EXPECT_NEAR(e.no_overlap_s, 18.37, 0.01);
  EXPECT_NEAR(e.wait_no_overlap, 17.872 / 18.372, 1e-4);  // ~97 %
  EXPECT_EQ(std::lround(e.wait_no_overlap * 100), 97);
  EXPECT_NEAR(e.perfect_overlap_s, e.comm_s, 1e-12);
  // Fixed model, f = 2/3: 0.5 + 17.872 - 0.333 = 18.039 s.
  EXPECT_NEAR(e.model_s, 0.5 + 17.8723 - 0.5 * 2 / 3, 1e-3);
  EXPECT_NEAR(e.scaling_efficiency, 0.5 / e.model_s, 1e-12);
}

TEST(WorkedExample, HundredGbEAtTheSameEfficiency) {
  // This network: 9.4 Gb/s against the 10GbE ceiling of 9.415 Gb/s.
  EXPECT_NEAR(ethernet_ceiling_Bps(10) * 8, 10e9 * 1448 / 1538, 1);
  const double efficiency = 9.4e9 / (ethernet_ceiling_Bps(10) * 8);
  const AlphaBeta at100 = at_link_speed({0, kBeta10G}, efficiency, 100);
  EXPECT_NEAR(8 / at100.beta_s_per_byte, 94e9, 1e3);  // 94 Gb/s
  const auto e = estimate_step(at100, 4, 14e9, kDdpBucketBytes, 0.5);
  EXPECT_NEAR(e.comm_s, 1.787, 0.001);
  EXPECT_NEAR(e.wait_no_overlap, 1.7872 / 2.2872, 1e-4);  // ~78 %
  EXPECT_EQ(std::lround(e.wait_no_overlap * 100), 78);
}

TEST(LinkSpeed, KeepsAlphaAndScalesBandwidth) {
  const AlphaBeta m = at_link_speed({25e-6, 1}, 0.5, 400);
  EXPECT_DOUBLE_EQ(m.alpha_s, 25e-6);
  EXPECT_NEAR(1 / m.beta_s_per_byte, 0.5 * 400e9 / 8 * 1448 / 1538, 1);
}

TEST(Buckets, PartialLastBucketAndLatencyPerBucket) {
  const double mib = 1 << 20;
  EXPECT_EQ(bucket_count(60 * mib, 25 * mib), 3);
  EXPECT_EQ(bucket_count(50 * mib, 25 * mib), 2);
  const AlphaBeta m{10e-6, 1e-9};
  // 3 buckets × 2(n-1)·alpha + 2(n-1)/n·G·beta at n = 4.
  EXPECT_NEAR(bucketed_allreduce_s(m, 4, 60 * mib, 25 * mib), 3 * 6 * 10e-6 + 1.5 * 60 * mib * 1e-9, 1e-12);
  EXPECT_EQ(bucketed_allreduce_s(m, 1, 60 * mib, 25 * mib), 0);
}

TEST(StepModel, OverlapBoundsAndWaits) {
  // comm 1 s, compute 2 s, f = 2/3: the model hides 1 s of 1.333 -> step 2 s, no wait.
  const auto hidden = estimate_step({0, 1e-9}, 2, 1e9, 1e12, 2.0);
  EXPECT_NEAR(hidden.comm_s, 1.0, 1e-12);
  EXPECT_NEAR(hidden.no_overlap_s, 3.0, 1e-12);
  EXPECT_NEAR(hidden.perfect_overlap_s, 2.0, 1e-12);
  EXPECT_NEAR(hidden.model_s, 2.0, 1e-12);
  EXPECT_NEAR(hidden.wait_no_overlap, 1.0 / 3, 1e-12);
  EXPECT_EQ(hidden.wait_model, 0);
  // comm 1 s, compute 0.75 s: model step 0.75 + (1 - 0.5) = 1.25 s, waiting 0.5/1.25 = 40 %.
  const auto exposed = estimate_step({0, 1e-9}, 2, 1e9, 1e12, 0.75);
  EXPECT_NEAR(exposed.model_s, 1.25, 1e-12);
  EXPECT_NEAR(exposed.wait_model, 0.4, 1e-12);
  EXPECT_NEAR(exposed.scaling_efficiency, 0.6, 1e-12);
}

TEST(StepModel, NodeCountWhereCommunicationExceedsCompute) {
  // 1 GB over 1 GB/s: comm(n) = 2(n-1)/n s = 1, 1.333, 1.5, 1.6 at n = 2..5; compute 1.55 s -> 5 nodes.
  EXPECT_EQ(nodes_where_comm_exceeds_compute({0, 1e-9}, 1e9, 1e12, 1.55), 5);
  EXPECT_EQ(nodes_where_comm_exceeds_compute({0, 1e-9}, 1e9, 1e12, 0.5), 2);
  // comm never reaches 2 s without latency.
  EXPECT_FALSE(nodes_where_comm_exceeds_compute({0, 1e-9}, 1e9, 1e12, 2.5, 1000).has_value());
}

TEST(Fit, RecoversAlphaAndBetaOfOneCurve) {
  const AlphaBeta truth{20e-6, 1.0 / 1.2e9};
  const auto fit = fit_ring(synthetic(truth, {4}, 1024, 64 << 20));
  ASSERT_TRUE(fit.has_value());
  EXPECT_NEAR(fit->model.alpha_s, truth.alpha_s, 1e-9);
  EXPECT_NEAR(fit->model.beta_s_per_byte * 1.2e9, 1.0, 1e-6);
  EXPECT_NEAR(fit->quality.r2, 1.0, 1e-9);
  EXPECT_LT(fit->quality.max_abs_relative, 1e-6);
  EXPECT_EQ(fit->residuals.size(), 9u);
  EXPECT_EQ(fit->min_bytes, 1024);
  EXPECT_EQ(fit->max_bytes, 64 << 20);
}

TEST(Fit, AcrossNodeCountsSeparatesAlphaFromBetaAtOneSize) {
  // A scaling sweep: one size, n = 2, 3, 4 nodes.
  const AlphaBeta truth{50e-6, 1e-9};
  std::vector<TimedPoint> pts;
  for (int n : {2, 3, 4}) pts.push_back({n, 1e3, ring_allreduce_s(truth, n, 1e3)});
  const auto fit = fit_ring(pts);
  ASSERT_TRUE(fit.has_value());
  EXPECT_NEAR(fit->model.alpha_s, 50e-6, 1e-10);
  EXPECT_NEAR(fit->model.beta_s_per_byte, 1e-9, 1e-12);
}

TEST(Fit, ResidualsAreRelativeToTheMeasurement) {
  // The first two points lie on alpha = 0, beta = 1 ns/B at n = 2; the third is 25 % slower than that
  // line. No line fits all three: the slow point keeps a negative residual (predicted below measured).
  const std::vector<TimedPoint> pts{{2, 1e6, 1e-3}, {2, 2e6, 2e-3}, {2, 4e6, 5e-3}};
  const auto fit = fit_ring(pts);
  ASSERT_TRUE(fit.has_value());
  for (const auto& r : fit->residuals)
    EXPECT_NEAR(r.relative, (r.predicted_s - r.measured_s) / r.measured_s, 1e-15);
  EXPECT_LT(fit->residuals.back().relative, 0);
  EXPECT_GT(fit->quality.max_abs_relative, 0.01);
  EXPECT_LT(fit->quality.r2, 1.0);
}

TEST(Fit, NegativeLatencyIsClampedToZero) {
  // T = S·beta minus a constant: the unconstrained alpha is negative; the fit keeps alpha = 0.
  const std::vector<TimedPoint> pts{{2, 1e6, 1e-3 - 1e-5}, {2, 2e6, 2e-3 - 1e-5}, {2, 4e6, 4e-3 - 1e-5}};
  const auto fit = fit_ring(pts);
  ASSERT_TRUE(fit.has_value());
  EXPECT_EQ(fit->model.alpha_s, 0);
  EXPECT_GT(fit->model.beta_s_per_byte, 0);
}

TEST(Fit, NeedsTwoSeparablePoints) {
  EXPECT_FALSE(fit_ring({{4, 1e6, 1e-3}}).has_value());
  EXPECT_FALSE(fit_ring({{4, 1e6, 1e-3}, {4, 1e6, 1.1e-3}}).has_value());  // one size, one n
  EXPECT_FALSE(fit_ring({{1, 1e6, 1e-3}, {1, 2e6, 2e-3}}).has_value());     // one rank: no all-reduce
  EXPECT_TRUE(fit_regimes({}).empty());
}

TEST(Regimes, SplitWhereTheAlgorithmChanges) {
  // Small messages (1 KiB .. 64 KiB) on a latency-bound algorithm, large ones (256 KiB .. 64 MiB) on a ring.
  const AlphaBeta small{40e-6, 1.0 / 0.2e9}, large{5e-6, 1.0 / 1.1e9};
  auto pts = synthetic(small, {4}, 1024, 65536);
  const auto big = synthetic(large, {4}, 262144, 64 << 20);
  pts.insert(pts.end(), big.begin(), big.end());
  const auto fits = fit_regimes(pts);
  ASSERT_EQ(fits.size(), 2u);
  EXPECT_EQ(fits[0].regime, "small messages");
  EXPECT_EQ(fits[1].regime, "large messages");
  EXPECT_EQ(fits[0].max_bytes, 65536);
  EXPECT_EQ(fits[1].min_bytes, 262144);
  EXPECT_NEAR(fits[1].model.beta_s_per_byte * 1.1e9, 1.0, 1e-6);
  EXPECT_NEAR(fits[0].model.alpha_s, 40e-6, 1e-9);
}

TEST(Regimes, OneRegimeWhenOneLineFits) {
  const auto fits = fit_regimes(synthetic({5e-6, 1e-9}, {4}, 1024, 64 << 20));
  ASSERT_EQ(fits.size(), 1u);
  EXPECT_EQ(fits[0].regime, "all sizes");
}

TEST(Fallback, PairLatencyAndGoodput) {
  // Half round trip 30 us, goodput 0.9415 Gb/s = 117.7 MB/s.
  const AlphaBeta m = from_pair(30e-6, 0.9415e9 / 8);
  EXPECT_DOUBLE_EQ(m.alpha_s, 30e-6);
  EXPECT_NEAR(m.beta_s_per_byte, 8 / 0.9415e9, 1e-20);
  EXPECT_NEAR(transfer_s(m, 1e9), 30e-6 + 8 / 0.9415, 1e-9);
}
