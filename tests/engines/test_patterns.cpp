// The verification patterns: what each rank must receive is checked against a direct simulation of
// each collective over the ranks' send buffers, and the shapes follow nccl-tests' size conventions.
#include <algorithm>

#include <gtest/gtest.h>

#include "bench/engines/patterns.hpp"

using namespace gpunet::bench;
namespace report = gpunet::report;
using report::Collective;

namespace {

using Buffers = std::vector<std::vector<double>>;

double fold(const std::string& op, double a, double b) { return op == "max" ? std::max(a, b) : op == "min" ? std::min(a, b) : a + b; }

// The collective's result on every rank, computed from the send buffers as its definition says.
Buffers simulate(Collective c, const std::string& op, int n, int64_t count) {
  Buffers send(static_cast<size_t>(n));
  const bool per_rank = c == Collective::allgather || c == Collective::reduce_scatter || c == Collective::alltoall;
  const int64_t send_elems = patterns::shape(c, count * 8 * (per_rank ? n : 1), 8, n, 0).send_elems;
  for (int r = 0; r < n; ++r)
    for (int64_t i = 0; i < send_elems; ++i) send[static_cast<size_t>(r)].push_back(patterns::send_value(c, n, r, count, i));
  Buffers out(static_cast<size_t>(n));
  auto reduce_at = [&](int64_t j) {
    double v = send[0][static_cast<size_t>(j)];
    for (int r = 1; r < n; ++r) v = fold(op, v, send[static_cast<size_t>(r)][static_cast<size_t>(j)]);
    return v;
  };
  for (int r = 0; r < n; ++r) {
    auto& o = out[static_cast<size_t>(r)];
    switch (c) {
      case Collective::allreduce:
      case Collective::reduce:
        for (int64_t i = 0; i < count; ++i) o.push_back(reduce_at(i));
        break;
      case Collective::broadcast: o = send[0]; break;
      case Collective::allgather:
        for (int src = 0; src < n; ++src) o.insert(o.end(), send[static_cast<size_t>(src)].begin(), send[static_cast<size_t>(src)].end());
        break;
      case Collective::reduce_scatter:
        for (int64_t i = 0; i < count; ++i) o.push_back(reduce_at(r * count + i));
        break;
      case Collective::alltoall:
        for (int src = 0; src < n; ++src)
          for (int64_t i = 0; i < count; ++i) o.push_back(send[static_cast<size_t>(src)][static_cast<size_t>(r * count + i)]);
        break;
      case Collective::sendrecv: o = send[static_cast<size_t>((r - 1 + n) % n)]; break;
    }
  }
  return out;
}

}  // namespace

class PatternsByCollective : public ::testing::TestWithParam<Collective> {};

TEST_P(PatternsByCollective, ExpectedMatchesASimulationOfTheCollective) {
  const Collective c = GetParam();
  for (const std::string op : {"sum", "max", "min"})
    for (int n : {1, 2, 3, 8}) {
      const int64_t count = 29;
      const Buffers want = simulate(c, op, n, count);
      for (int r = 0; r < n; ++r) {
        if (!patterns::checked(c, r)) continue;
        const auto& w = want[static_cast<size_t>(r)];
        for (size_t i = 0; i < w.size(); ++i)
          ASSERT_EQ(patterns::expected(c, op, n, r, count, static_cast<int64_t>(i)), w[i])
              << report::to_string(c) << " op " << op << " n " << n << " rank " << r << " element " << i;
      }
    }
}

INSTANTIATE_TEST_SUITE_P(All, PatternsByCollective,
                         ::testing::Values(Collective::allreduce, Collective::allgather, Collective::reduce_scatter,
                                           Collective::broadcast, Collective::reduce, Collective::alltoall,
                                           Collective::sendrecv),
                         [](const auto& p) { return report::to_string(p.param); });

TEST(Patterns, ShapesFollowNcclTests) {
  // 1 MiB of floats on 4 ranks.
  const int64_t b = 1 << 20;
  auto s = patterns::shape(Collective::allreduce, b, 4, 4, 1);
  EXPECT_EQ(s.count, b / 4);
  EXPECT_EQ(s.size_bytes, b);
  s = patterns::shape(Collective::allgather, b, 4, 4, 3);
  EXPECT_EQ(s.count, b / 16);  // per-rank send count
  EXPECT_EQ(s.recv_elems, b / 4);
  EXPECT_EQ(s.size_bytes, b);  // total output
  EXPECT_EQ(s.inplace_offset, 3 * b / 16);
  s = patterns::shape(Collective::reduce_scatter, b, 4, 4, 2);
  EXPECT_EQ(s.count, b / 16);
  EXPECT_EQ(s.send_elems, b / 4);
  EXPECT_EQ(s.size_bytes, b);  // total input
  s = patterns::shape(Collective::alltoall, b, 4, 4, 0);
  EXPECT_EQ(s.count, b / 16);  // per peer
  EXPECT_EQ(s.send_elems, b / 4);
  // A size that does not divide: nccl-tests rounds down to whole elements per rank.
  s = patterns::shape(Collective::allgather, 1000, 4, 3, 0);
  EXPECT_EQ(s.count, 83);
  EXPECT_EQ(s.size_bytes, 83 * 3 * 4);
  EXPECT_EQ(patterns::shape(Collective::allgather, 8, 4, 4, 0).count, 0);
  EXPECT_FALSE(patterns::supports_in_place(Collective::alltoall));
  EXPECT_TRUE(patterns::supports_in_place(Collective::reduce_scatter));
}

TEST(Patterns, EncodingRoundTripsInEveryType) {
  for (const std::string d : {"float", "double", "int32", "int64"}) {
    const auto buf = patterns::encode_buffer(d, 50, [](int64_t i) { return patterns::reduced("sum", 64, i); });
    ASSERT_EQ(static_cast<int64_t>(buf.size()), 50 * dtype_size(d));
    for (int64_t i = 0; i < 50; ++i) EXPECT_EQ(patterns::decode(d, buf.data() + i * dtype_size(d)), patterns::reduced("sum", 64, i)) << d;
  }
  EXPECT_EQ(dtype_size("half"), 0);
}

// In place on one rank there is nothing to move (its time is the call's host cost, no rate); on two
// ranks, or out of place, there is; alltoall and sendrecv have no in-place form.
TEST(Patterns, MovesNoDataOnlyInPlaceOnOneRank) {
  for (auto c : {Collective::allreduce, Collective::allgather, Collective::reduce_scatter, Collective::broadcast,
                 Collective::reduce}) {
    EXPECT_TRUE(patterns::moves_no_data(c, 1, true)) << to_string(c);
    EXPECT_FALSE(patterns::moves_no_data(c, 1, false)) << to_string(c);
    EXPECT_FALSE(patterns::moves_no_data(c, 2, true)) << to_string(c);
  }
  EXPECT_FALSE(patterns::moves_no_data(Collective::alltoall, 1, true));
  EXPECT_FALSE(patterns::moves_no_data(Collective::sendrecv, 1, true));
}
