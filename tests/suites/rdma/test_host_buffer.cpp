// Host memory for RDMA on a NUMA node of this machine, and its pattern and check.
#include <gtest/gtest.h>

#include "bench/suites/rdma/buffer.hpp"

using namespace gpunet::bench::rdma;

TEST(HostBuffer, PlacedOnTheRequestedNode) {
  // Every Linux machine has NUMA node 0; libnuma places and then reports the pages there.
  const auto b = make_host_buffer(1 << 20, 0);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->size(), 1u << 20);
  EXPECT_FALSE(b->device_memory());
  EXPECT_EQ(b->describe(), "host memory on NUMA node 0");
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b->data()) % 4096, 0u);
  std::string why;
  EXPECT_EQ(b->export_dmabuf(why), -1);
  EXPECT_FALSE(why.empty());
}

TEST(HostBuffer, NoNodeAskedRoundsUpToPages) {
  const auto b = make_host_buffer(5000, -1);
  EXPECT_EQ(b->size(), 8192u);
  EXPECT_EQ(b->describe().rfind("host memory", 0), 0u);
}

TEST(HostBuffer, PatternFillAndCheck) {
  auto b = make_host_buffer(64 << 10, -1);
  const size_t half = b->size() / 2;
  b->fill(7, half, 4096);
  EXPECT_EQ(b->count_wrong(7, half, 4096), 0);
  int64_t nonzero = 0;
  for (size_t i = 0; i < 4096; ++i) nonzero += pattern_byte(8, i) != pattern_byte(7, i);
  EXPECT_GT(nonzero, 3000);  // another sender's pattern is detected almost everywhere
  EXPECT_EQ(b->count_wrong(8, half, 4096), nonzero);
  static_cast<uint8_t*>(b->data())[half + 100] ^= 0xff;
  EXPECT_EQ(b->count_wrong(7, half, 4096), 1);
  b->clear(half, 4096);
  int64_t zeros = 0;
  for (size_t i = 0; i < 4096; ++i) zeros += pattern_byte(7, i) == 0;
  EXPECT_EQ(b->count_wrong(7, half, 4096), 4096 - zeros);
}
