// The NCCL log parser on captured-format fixtures (tests/data/nccl): version, network and NICs,
// transport per peer, GPUDirect RDMA, PXN proxies, warnings, and the summaries for the records.
#include <fstream>

#include <gtest/gtest.h>

#include "bench/suites/nccl/nccl_log.hpp"
#include "gpunet/build_config.h"

using namespace gpunet::bench::gpu;

namespace {
NcclLog parse_fixture(const std::string& name, int rank) {
  std::ifstream in(std::string(GPUNET_SOURCE_DIR) + "/tests/data/nccl/" + name);
  EXPECT_TRUE(in.good()) << name;
  return parse_nccl_log(in, rank);
}
}  // namespace

TEST(NcclLog, InfiniBandWithGdrAndP2pInsideTheNode) {
  const NcclLog log = parse_fixture("ib_gdr_4ranks.rank0.log", 0);
  EXPECT_EQ(log.version, "2.21.5+cuda12.4");
  EXPECT_EQ(log.network, "IB");
  EXPECT_EQ(log.oob_interface, "ib0");
  ASSERT_EQ(log.net_devices.size(), 2u);
  EXPECT_EQ(log.net_devices[0].name, "mlx5_0");
  EXPECT_EQ(log.net_devices[0].port, 1);
  EXPECT_EQ(log.net_devices[0].link, "IB");
  EXPECT_EQ(log.net_devices[1].index, 1);
  EXPECT_EQ(log.net_devices[1].name, "mlx5_1");

  ASSERT_EQ(log.peers.size(), 3u);  // 1 (same node), 2 and 3 (other node)
  EXPECT_EQ(log.peers.at(1).transports, std::set<std::string>{"P2P/CUMEM"});
  EXPECT_EQ(log.peers.at(1).via, "P2P/CUMEM/read");
  EXPECT_EQ(log.peers.at(3).transports, std::set<std::string>{"NET/IB"});
  EXPECT_EQ(log.peers.at(3).net_devs, (std::set<int>{0, 1}));
  EXPECT_TRUE(log.peers.at(3).net_gdr);
  EXPECT_EQ(log.peers.at(2).lines, 2);  // one receive, one send
  EXPECT_TRUE(log.warnings.empty());

  const auto s = summarize(log);
  EXPECT_EQ(s["transport"], "NET/IB");
  EXPECT_EQ(s["net"], "IB");
  EXPECT_EQ(s["gdr"], true);
  EXPECT_EQ(s["nic"], "mlx5_0,mlx5_1");
  EXPECT_EQ(s["version"], "2.21.5+cuda12.4");
  EXPECT_EQ(s["oob_iface"], "ib0");
  EXPECT_FALSE(s.contains("iface"));
  EXPECT_EQ(s["transports"]["P2P/CUMEM"], gpunet::json::array({1}));
  EXPECT_EQ(s["transports"]["NET/IB"], gpunet::json::array({2, 3}));
  EXPECT_EQ(s["peers"]["3"], "NET/IB/0/GDRDMA");
}

TEST(NcclLog, SocketTransportNamesTheInterfacesAndKeepsWarnings) {
  const NcclLog log = parse_fixture("socket_2nodes.rank1.log", 1);
  EXPECT_EQ(log.version, "2.18.3+cuda12.2");  // the plain "NCCL version" line of older releases
  EXPECT_EQ(log.network, "Socket");
  ASSERT_EQ(log.net_devices.size(), 2u);
  EXPECT_EQ(log.net_devices[0].name, "eth0");
  EXPECT_EQ(log.net_devices[0].address, "192.168.1.12");
  EXPECT_EQ(log.net_devices[1].name, "eth1");
  ASSERT_EQ(log.peers.size(), 1u);
  const auto& p = log.peers.at(0);
  EXPECT_EQ(p.transports, std::set<std::string>{"NET/Socket"});
  EXPECT_FALSE(p.net_gdr);
  EXPECT_EQ(p.lines, 4);
  ASSERT_EQ(log.warnings.size(), 1u);
  EXPECT_NE(log.warnings[0].find("message truncated"), std::string::npos);

  const auto s = summarize(log);
  EXPECT_EQ(s["transport"], "NET/Socket");
  EXPECT_EQ(s["gdr"], false);
  EXPECT_EQ(s["iface"], "eth0,eth1");
  EXPECT_EQ(s["nic"], "eth0,eth1");
  ASSERT_TRUE(s.contains("warnings"));
}

TEST(NcclLog, LegacyFormatWithBusIdsP2pAndShm) {
  const NcclLog log = parse_fixture("legacy_single_node.rank0.log", 0);
  EXPECT_EQ(log.version, "2.7.8+cuda11.0");
  EXPECT_EQ(log.network, "IB");
  ASSERT_EQ(log.net_devices.size(), 1u);
  EXPECT_EQ(log.net_devices[0].link, "RoCE");
  EXPECT_EQ(log.oob_interface, "enp1s0f0");
  ASSERT_EQ(log.peers.size(), 2u);
  EXPECT_EQ(log.peers.at(1).transports, std::set<std::string>{"P2P/IPC"});
  EXPECT_EQ(log.peers.at(2).transports, std::set<std::string>{"SHM/direct"});
  EXPECT_EQ(log.peers.at(2).lines, 2);  // 0 -> 2 and 2 -> 0 both name this rank
  const auto s = summarize(log);
  EXPECT_EQ(s["transport"], "SHM/direct");  // no network path: shared memory limits
  EXPECT_FALSE(s.contains("gdr"));
  EXPECT_EQ(s["nic"], "");
}

TEST(NcclLog, ProxiedNetAndIndirectP2p) {
  const NcclLog log = parse_fixture("ib_pxn_nogdr.rank5.log", 5);
  EXPECT_EQ(log.oob_interface, "bond0");
  const auto& net = log.peers.at(1);
  EXPECT_EQ(net.transports, std::set<std::string>{"NET/IB"});
  EXPECT_EQ(net.proxy_rank, 4);
  EXPECT_EQ(net.net_devs, (std::set<int>{0, 1}));
  EXPECT_FALSE(net.net_gdr);
  EXPECT_EQ(log.peers.at(6).transports, std::set<std::string>{"P2P/CUMEM"});
  EXPECT_EQ(log.peers.at(4).transports, std::set<std::string>{"P2P/CUMEM"});
  EXPECT_EQ(log.peers.at(7).transports, std::set<std::string>{"P2P/indirect"});
  EXPECT_EQ(summarize(log)["nic"], "mlx5_2,mlx5_3");
}

TEST(NcclLog, RankInferredFromDirectionWhenUnknown) {
  const auto log = parse_nccl_log_text(
      "h:1:2 [0] NCCL INFO Channel 00/0 : 3[0] -> 2[0] [receive] via NET/Socket/0\n"
      "h:1:2 [0] NCCL INFO Channel 00/0 : 2[0] -> 5[0] [send] via NET/Socket/0\n",
      -1);
  ASSERT_EQ(log.peers.size(), 2u);
  EXPECT_TRUE(log.peers.count(3));
  EXPECT_TRUE(log.peers.count(5));
}

TEST(NcclLog, EmptyOrForeignTextGivesAnEmptySummary) {
  const auto log = parse_nccl_log_text("nothing to see\nNCCL INFO Connected all rings\n", 0);
  EXPECT_TRUE(log.peers.empty());
  EXPECT_TRUE(log.version.empty());
  const auto s = summarize(log);
  EXPECT_EQ(s["transport"], "");
  EXPECT_FALSE(s.contains("gdr"));
}

TEST(NcclLog, TransportOfVia) {
  EXPECT_EQ(transport_of_via("NET/IB/0/GDRDMA"), "NET/IB");
  EXPECT_EQ(transport_of_via("NET/AWS Libfabric/3"), "NET/AWS Libfabric");
  EXPECT_EQ(transport_of_via("P2P/direct pointer/read"), "P2P/direct pointer");
  EXPECT_EQ(transport_of_via("SHM/direct/direct"), "SHM/direct");
  EXPECT_EQ(transport_of_via("NVLS"), "NVLS");
}

TEST(NcclLog, MergeAcrossRanks) {
  const auto r0 = summarize(parse_fixture("ib_gdr_4ranks.rank0.log", 0));
  const auto r5 = summarize(parse_fixture("ib_pxn_nogdr.rank5.log", 5));
  const auto m = merge_summaries({r0, r5});
  EXPECT_EQ(m["transport"], "NET/IB");
  EXPECT_EQ(m["gdr"], false);  // one rank's network links lack GPUDirect RDMA
  EXPECT_EQ(m["nic"], "mlx5_0,mlx5_1,mlx5_2,mlx5_3");
  EXPECT_EQ(m["version"], "2.21.5+cuda12.4, 2.26.2+cuda12.8");
  EXPECT_EQ(m["transports"]["NET/IB"], gpunet::json::array({0, 1}));
  EXPECT_EQ(m["transports"]["P2P/indirect"], gpunet::json::array({1}));
  EXPECT_EQ(merge_summaries({gpunet::json{{"note", "no log"}}})["transport"], "");
}
