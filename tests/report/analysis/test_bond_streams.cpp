// A bond whose several streams reach no more than one member's rate (report/analysis/bond_streams.hpp): the
// rule, the loads read from tcp flows and the topology, and the finding the analysis adds. Tested on
// records: this machine's kernel has no bonding driver, so the fake cluster cannot build a bond.
#include <gtest/gtest.h>

#include "report/analysis/analysis.hpp"
#include "report/analysis/bond_streams.hpp"
#include "report/model/figure.hpp"

using namespace gpunet::report;
using gpunet::json;

namespace {

// n1 with bond0 (balance-xor) over eth0 and eth1 at 1 Gb/s, eth1 up or down.
json bond_topology(bool eth1_up = true) {
  json member0 = {{"name", "eth0"}, {"kind", "physical"}, {"speed_Mbps", 1000}, {"operstate", "up"}, {"master", "bond0"}};
  json member1 = member0;
  member1["name"] = "eth1";
  member1["operstate"] = eth1_up ? "up" : "down";
  json bond = {{"name", "bond0"}, {"kind", "bond"}, {"speed_Mbps", 2000}, {"operstate", "up"},
               {"members", {"eth0", "eth1"}}, {"bond_mode", "balance-xor"}};
  return {{"n1", {{"hostname", "n1"}, {"interfaces", {member0, member1, bond}}}}};
}

// One test's flows from n1 over `iface`, each with `streams` streams at `Gbps`.
Report bond_run(const std::vector<double>& Gbps, int streams, const std::string& iface = "bond0") {
  Report rep;
  rep.topology = bond_topology();
  for (size_t k = 0; k < Gbps.size(); ++k) {
    Record r;
    r.suite = "tcp";
    r.name = "bandwidth";
    r.variant = "one-to-many";
    r.kind = RecordKind::tcp_flow;
    r.host = "n" + std::to_string(k + 2);
    r.extra = {{"src_host", "n1"}, {"dst_host", r.host}, {"started_s", 1.5}, {"link", {{"iface", iface}}}};
    r.figure = rate_figure("tcp.goodput", Gbps[k], "Gb/s", pair_subject("n1", 0, r.host, static_cast<int>(k) + 1), PathModel::tcp_flow);
    r.figure->parameters = {{"test", "one-to-many"}, {"streams", std::to_string(streams)}};
    rep.results.push_back(r);
  }
  return rep;
}

}  // namespace

TEST(BondStreams, SeveralStreamsAtOneMembersRateAreNamed) {
  BondLoad b{"n1", "bond0", "balance-xor", {1, 1}, 4, 0.94};
  const std::string s = bond_one_member_sentence(b);
  EXPECT_EQ(s.rfind("n1 bond0 (balance-xor): 4 streams reached 0.94 Gb/s, one member's rate 1 Gb/s of 2 members (2 Gb/s together)", 0), 0u) << s;
  EXPECT_NE(s.find("xmit_hash_policy=layer3+4"), std::string::npos) << s;
  b.reached_Gbps = 1.04;  // within the slack of one member
  EXPECT_FALSE(bond_one_member_sentence(b).empty());
  b.reached_Gbps = 1.6;   // more than one member carries
  EXPECT_TRUE(bond_one_member_sentence(b).empty());
  b.reached_Gbps = 0.94;
  b.streams = 1;          // one stream takes one member by design
  EXPECT_TRUE(bond_one_member_sentence(b).empty());
  b.streams = 4;
  b.member_Gbps = {1};    // one member up: the sysfs finding (bond_member_down) says it
  EXPECT_TRUE(bond_one_member_sentence(b).empty());
}

TEST(BondStreams, LoadsComeFromFlowsThatLeftABondTogether) {
  const auto loads = bond_loads(bond_run({0.31, 0.32, 0.31}, 2));
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(loads[0].host, "n1");
  EXPECT_EQ(loads[0].bond, "bond0");
  EXPECT_EQ(loads[0].mode, "balance-xor");
  EXPECT_EQ(loads[0].streams, 6);
  EXPECT_NEAR(loads[0].reached_Gbps, 0.94, 1e-9);
  EXPECT_EQ(loads[0].member_Gbps, (std::vector<double>{1, 1}));
  EXPECT_TRUE(bond_loads(bond_run({0.31, 0.32}, 2, "eth0")).empty()) << "a plain interface is no bond";
  auto down = bond_run({0.31, 0.32}, 2);
  down.topology = bond_topology(false);
  EXPECT_EQ(bond_loads(down).at(0).member_Gbps.size(), 1u);
}

TEST(BondStreams, TheAnalysisAddsTheFindingOnce) {
  Report rep = bond_run({0.31, 0.32, 0.31}, 2);
  analyze(rep);
  analyze(rep);
  ASSERT_TRUE(rep.findings.is_array());
  ASSERT_EQ(rep.findings.size(), 1u) << rep.findings.dump();
  EXPECT_EQ(rep.findings[0].at("kind"), "bond_one_member");
  EXPECT_EQ(rep.findings[0].at("node"), "n1");
  // Both members carried: nothing to say.
  Report spread = bond_run({0.62, 0.61, 0.6}, 2);
  analyze(spread);
  EXPECT_TRUE(spread.findings.empty() || spread.findings.size() == 0u) << spread.findings.dump();
}
