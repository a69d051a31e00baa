// The pair plan built from the configuration, the rdma options, and the QP info wire form.
#include <gtest/gtest.h>

#include <algorithm>

#include "bench/suites/rdma/plan.hpp"
#include "bench/suites/rdma/qp_info.hpp"
#include "tests/support/parse_options.hpp"

using namespace gpunet::bench;
using namespace gpunet::bench::rdma;

namespace {

Config config(std::vector<std::string> args) {
  auto r = option_tests::parse(std::move(args));
  if (!r.config) throw std::runtime_error(r.message);
  return *r.config;
}

std::vector<int64_t> sizes_of(const std::vector<PlanStep>& plan, PlanStep::Kind k, MemoryKind m) {
  std::vector<int64_t> out;
  for (const auto& s : plan)
    if (s.kind == k && s.memory == m) out.push_back(s.bytes);
  return out;
}

}  // namespace

TEST(RdmaPlan, PairModeSweepsAndAddsTheLargeSize) {
  const auto plan = build_plan(config({"-b", "1K", "-e", "1M", "-f", "16", "--rdma-size", "512K", "--rdma-mem", "host"}), true);
  ASSERT_FALSE(plan.empty());
  EXPECT_EQ(plan.front().kind, PlanStep::Kind::connect);
  EXPECT_EQ(sizes_of(plan, PlanStep::Kind::bandwidth, MemoryKind::host), (std::vector<int64_t>{1024, 16384, 262144, 524288}));
  EXPECT_TRUE(sizes_of(plan, PlanStep::Kind::bidir, MemoryKind::host).empty());
  EXPECT_EQ(sizes_of(plan, PlanStep::Kind::latency, MemoryKind::host), (std::vector<int64_t>{1024, 16384}));
  const auto headline = std::count_if(plan.begin(), plan.end(), [](const PlanStep& s) { return s.headline; });
  EXPECT_EQ(headline, 1);
}

TEST(RdmaPlan, BidirAndGpuDirectPhase) {
  const auto plan = build_plan(config({"-b", "8", "-e", "4M", "--rdma-bidir"}), true);
  EXPECT_EQ(sizes_of(plan, PlanStep::Kind::bidir, MemoryKind::host), sizes_of(plan, PlanStep::Kind::bandwidth, MemoryKind::host));
  EXPECT_EQ(sizes_of(plan, PlanStep::Kind::connect, MemoryKind::cuda).size(), 1u);
  EXPECT_EQ(sizes_of(plan, PlanStep::Kind::bandwidth, MemoryKind::cuda), (std::vector<int64_t>{1 << 20}));
  EXPECT_EQ(sizes_of(plan, PlanStep::Kind::bidir, MemoryKind::cuda), (std::vector<int64_t>{1 << 20}));
  EXPECT_EQ(sizes_of(plan, PlanStep::Kind::latency, MemoryKind::cuda), (std::vector<int64_t>{8}));
  // auto without CUDA in the build: host only.
  EXPECT_TRUE(sizes_of(build_plan(config({}), false), PlanStep::Kind::connect, MemoryKind::cuda).empty());
  // cuda asked for: GPU memory only.
  const auto cuda = build_plan(config({"--rdma-mem", "cuda"}), false);
  EXPECT_TRUE(sizes_of(cuda, PlanStep::Kind::connect, MemoryKind::host).empty());
  EXPECT_EQ(sizes_of(cuda, PlanStep::Kind::connect, MemoryKind::cuda).size(), 1u);
}

TEST(RdmaPlan, MatrixModeIsOneSizeEach) {
  const auto plan = build_plan(config({"--rdma-mode", "matrix", "--rdma-size", "4M", "-b", "64", "--rdma-bidir"}), true);
  ASSERT_EQ(plan.size(), 3u);
  EXPECT_EQ(plan[0].kind, PlanStep::Kind::connect);
  EXPECT_EQ(plan[1].kind, PlanStep::Kind::bandwidth);
  EXPECT_EQ(plan[1].bytes, 4 << 20);
  EXPECT_TRUE(plan[1].headline);
  EXPECT_EQ(plan[2].kind, PlanStep::Kind::latency);
  EXPECT_EQ(plan[2].bytes, 64);
}

TEST(RdmaPlan, SizesAboveOneGigabyteAreLeftOut) {
  const auto plan = build_plan(config({"-b", "512M", "-e", "4G", "-f", "2", "--rdma-mem", "host"}), false);
  EXPECT_EQ(sizes_of(plan, PlanStep::Kind::bandwidth, MemoryKind::host), (std::vector<int64_t>{1 << 20, 512 << 20, 1 << 30}));
}

TEST(RdmaPlan, WritesPerOperation) {
  EXPECT_EQ(writes_per_op(8), 4096);
  EXPECT_EQ(writes_per_op(4096), 2048);
  EXPECT_EQ(writes_per_op(1 << 20), 8);
  EXPECT_EQ(writes_per_op(64 << 20), 4);
}

TEST(RdmaOptions, ParsedAndChecked) {
  const Config c = config({"--rdma-dev", "mlx5_0:1", "--gid-index", "3", "--rdma-ipv6", "--rdma-mode", "matrix", "--rdma-bidir",
                           "--rdma-size", "8M", "--rdma-tx-depth", "64", "--rdma-mem", "host"});
  EXPECT_EQ(c.rdma_dev, "mlx5_0:1");
  EXPECT_EQ(c.gid_index, 3);
  EXPECT_TRUE(c.rdma_ipv6);
  EXPECT_EQ(c.rdma_mode, "matrix");
  EXPECT_TRUE(c.rdma_bidir);
  EXPECT_EQ(c.rdma_size, 8 << 20);
  EXPECT_EQ(c.rdma_tx_depth, 64);
  EXPECT_EQ(c.rdma_mem, "host");
  for (const auto& bad : std::vector<std::vector<std::string>>{{"--rdma-mode", "ring"},
                                                                {"--rdma-size", "2G"},
                                                                {"--gid-index", "-2"},
                                                                {"--rdma-tx-depth", "0"},
                                                                {"--rdma-mem", "gpu"}})
    option_tests::expect_usage_error(bad, bad[0]);
}

TEST(QpInfoWire, RoundTripAndLittleEndianLayout) {
  QpInfo q;
  q.lid = 0x1234;
  q.qpn = 0xabcdef;
  q.psn = 0x123456;
  for (int i = 0; i < 16; ++i) q.gid[static_cast<size_t>(i)] = static_cast<uint8_t>(0xf0 + i);
  q.rkey = 0xdeadbeef;
  q.addr = 0x00007f0012345678ULL;
  q.mtu = 4096;
  q.gid_index = 3;
  const QpInfoWire w = serialize(q);
  EXPECT_EQ(w[0], 0x34);
  EXPECT_EQ(w[1], 0x12);
  EXPECT_EQ(w[2], 0xef);  // qpn starts at byte 2
  EXPECT_EQ(w[10], 0xf0);  // gid starts at byte 10
  EXPECT_EQ(w[26], 0xef);  // rkey
  EXPECT_EQ(w[30], 0x78);  // addr
  EXPECT_EQ(deserialize(w), q);
  q.gid_index = -1;
  EXPECT_EQ(deserialize(serialize(q)).gid_index, -1);
}
