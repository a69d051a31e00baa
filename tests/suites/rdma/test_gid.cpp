// GID table reading and choice on sysfs trees built by the test (report/CEILINGS.md §7.1, ANCHORS.md §4 item 9).
#include <gtest/gtest.h>

#include "bench/suites/rdma/gid.hpp"
#include "tests/suites/rdma/sysfs_tree.hpp"

using namespace gpunet::bench::rdma;
using gpunet::test::SysfsTree;

namespace {

const char* kZero = "0000:0000:0000:0000:0000:0000:0000:0000";
const char* kLinkLocal = "fe80:0000:0000:0000:0ec4:7aff:fe11:2233";
const char* kMapped = "0000:0000:0000:0000:0000:ffff:c0a8:0105";  // ::ffff:192.168.1.5
const char* kGlobal6 = "2001:0db8:0000:0000:0ec4:7aff:fe11:2233";

// The layout mlx5 gives a RoCE port with one IPv4 address: v1 and v2 for each address, link-local first.
void mlx5_like(const SysfsTree& t, const std::string& dev) {
  t.gid(dev, 1, 0, kLinkLocal, "IB/RoCE v1", "eth2");
  t.gid(dev, 1, 1, kLinkLocal, "RoCE v2", "eth2");
  t.gid(dev, 1, 2, kMapped, "IB/RoCE v1", "eth2");
  t.gid(dev, 1, 3, kMapped, "RoCE v2", "eth2");
  for (int i = 4; i < 8; ++i) t.gid(dev, 1, i, kZero, "");  // empty slots
}

}  // namespace

TEST(Gid, ParseAndFormat) {
  const auto g = parse_gid(kMapped);
  ASSERT_TRUE(g);
  EXPECT_TRUE(is_ipv4_mapped(*g));
  EXPECT_FALSE(is_link_local(*g));
  EXPECT_EQ(format_gid(*g), "::ffff:192.168.1.5");
  const auto ll = parse_gid(kLinkLocal);
  ASSERT_TRUE(ll);
  EXPECT_TRUE(is_link_local(*ll));
  EXPECT_FALSE(is_ipv4_mapped(*ll));
  EXPECT_EQ(format_gid(*ll), "fe80::ec4:7aff:fe11:2233");
  EXPECT_TRUE(is_zero(*parse_gid(kZero)));
  EXPECT_FALSE(parse_gid("fe80::1"));
  EXPECT_FALSE(parse_gid("fe80:0000:0000:0000:0ec4:7aff:fe11:22zz"));
  EXPECT_FALSE(parse_gid("fe80-0000:0000:0000:0ec4:7aff:fe11:2233"));
}

TEST(Gid, ReadsTableSkippingEmptySlotsAndReadsTypes) {
  SysfsTree t;
  mlx5_like(t, "mlx5_0");
  t.gid("mlx5_0", 1, 10, kGlobal6, "RoCE v2", "eth2.100");
  const auto table = read_gid_table(t.root(), "mlx5_0", 1);
  ASSERT_EQ(table.size(), 5u);
  EXPECT_EQ(table[0].index, 0);
  EXPECT_EQ(table[0].type, GidType::roce_v1);
  EXPECT_EQ(table[1].type, GidType::roce_v2);
  EXPECT_EQ(table[3].index, 3);
  EXPECT_EQ(table[3].ndev, "eth2");
  EXPECT_EQ(table[4].index, 10);  // numeric order, not text order
  EXPECT_EQ(table[4].ndev, "eth2.100");
  EXPECT_TRUE(read_gid_table(t.root(), "mlx5_9", 1).empty());
}

TEST(Gid, MissingTypeFileMeansInfiniBand) {
  SysfsTree t;
  t.gid("mlx4_0", 1, 0, kLinkLocal, "");
  const auto table = read_gid_table(t.root(), "mlx4_0", 1);
  ASSERT_EQ(table.size(), 1u);
  EXPECT_EQ(table[0].type, GidType::ib);
}

TEST(Gid, PrefersIpv4MappedGlobalRoceV2) {
  SysfsTree t;
  mlx5_like(t, "mlx5_0");
  const auto c = choose_gid(read_gid_table(t.root(), "mlx5_0", 1), {});
  ASSERT_TRUE(c.ok) << c.reason;
  EXPECT_EQ(c.entry.index, 3);
  EXPECT_FALSE(c.forced);
  EXPECT_NE(c.reason.find("index 3: RoCE v2 ::ffff:192.168.1.5 on eth2"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("IPv4-mapped"), std::string::npos) << c.reason;
}

TEST(Gid, TwoVendorsTwoIndexesEachSideChoosesItsOwn) {
  // The pitfall behind "different gid index at both sides": one NIC has its RoCE v2 IPv4 GID at 3,
  // the other at 1. A fixed index fails on one of them; choosing per side does not.
  SysfsTree t;
  mlx5_like(t, "mlx5_0");
  t.gid("bnxt_re0", 1, 0, kLinkLocal, "RoCE v2", "ens1");
  t.gid("bnxt_re0", 1, 1, "0000:0000:0000:0000:0000:ffff:0a00:0002", "RoCE v2", "ens1");
  t.gid("bnxt_re0", 1, 2, kLinkLocal, "IB/RoCE v1", "ens1");
  EXPECT_EQ(choose_gid(read_gid_table(t.root(), "mlx5_0", 1), {}).entry.index, 3);
  const auto other = choose_gid(read_gid_table(t.root(), "bnxt_re0", 1), {});
  EXPECT_EQ(other.entry.index, 1);
  EXPECT_EQ(format_gid(other.entry.gid), "::ffff:10.0.0.2");
}

TEST(Gid, OnlyLinkLocalTakesRoceV2) {
  SysfsTree t;
  t.gid("rxe0", 1, 0, kLinkLocal, "IB/RoCE v1", "veth0");
  t.gid("rxe0", 1, 1, kLinkLocal, "RoCE v2", "veth0");
  const auto c = choose_gid(read_gid_table(t.root(), "rxe0", 1), {});
  ASSERT_TRUE(c.ok);
  EXPECT_EQ(c.entry.index, 1);
  EXPECT_NE(c.reason.find("no IPv4-mapped GID"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("link-local"), std::string::npos) << c.reason;
}

TEST(Gid, Ipv6PreferenceTakesGlobalIpv6) {
  SysfsTree t;
  mlx5_like(t, "mlx5_0");
  t.gid("mlx5_0", 1, 4, kGlobal6, "IB/RoCE v1", "eth2");
  t.gid("mlx5_0", 1, 5, kGlobal6, "RoCE v2", "eth2");
  const auto table = read_gid_table(t.root(), "mlx5_0", 1);
  EXPECT_EQ(choose_gid(table, {}).entry.index, 3);
  const auto c = choose_gid(table, {-1, true});
  EXPECT_EQ(c.entry.index, 5);
  EXPECT_EQ(gid_score(table[5], true), 112);
  EXPECT_EQ(gid_score(table[1], true), 102);  // link-local IPv6 v2
  EXPECT_EQ(gid_score(table[3], false), 112);
}

TEST(Gid, TieGoesToTheLowestIndex) {
  SysfsTree t;
  t.gid("mlx5_1", 1, 7, kMapped, "RoCE v2", "eth3");
  t.gid("mlx5_1", 1, 9, kMapped, "RoCE v2", "eth3.5");
  EXPECT_EQ(choose_gid(read_gid_table(t.root(), "mlx5_1", 1), {}).entry.index, 7);
}

TEST(Gid, ForcedIndexWinsEvenWhenWorse) {
  SysfsTree t;
  mlx5_like(t, "mlx5_0");
  const auto c = choose_gid(read_gid_table(t.root(), "mlx5_0", 1), {0, false});
  ASSERT_TRUE(c.ok);
  EXPECT_TRUE(c.forced);
  EXPECT_EQ(c.entry.index, 0);
  EXPECT_NE(c.reason.find("forced by --gid-index"), std::string::npos);
}

TEST(Gid, ForcedIndexThatIsEmptyOrMissingIsAnErrorListingTheValidOnes) {
  SysfsTree t;
  mlx5_like(t, "mlx5_0");
  const auto table = read_gid_table(t.root(), "mlx5_0", 1);
  for (int bad : {5, 200}) {
    const auto c = choose_gid(table, {bad, false});
    EXPECT_FALSE(c.ok);
    EXPECT_EQ(c.reason, "--gid-index " + std::to_string(bad) + ": no such non-empty GID on this port (valid: 0, 1, 2, 3)");
  }
}

TEST(Gid, NoTableIsAnError) {
  const auto c = choose_gid({}, {});
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.reason, "the port has no configured GID");
}
