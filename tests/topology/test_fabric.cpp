// Slurm hostlists and topology.conf (--fabric): what operators write parses to the tree they meant;
// every mistake is one line with FILE:LINE; hostile inputs are bounded, never expanded in full.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "topology/fabric.hpp"
#include "topology/hostlist.hpp"
#include "topology/model.hpp"

namespace gpunet::topo {
namespace {

using Names = std::vector<std::string>;

TEST(Hostlist, RangesListsPaddingAndProducts) {
  EXPECT_EQ(expand_hostlist("node[01-03,10]"), (Names{"node01", "node02", "node03", "node10"}));
  EXPECT_EQ(expand_hostlist("gpu7,login1"), (Names{"gpu7", "login1"}));
  EXPECT_EQ(expand_hostlist("fc-node[0-2]"), (Names{"fc-node0", "fc-node1", "fc-node2"}));
  EXPECT_EQ(expand_hostlist("r[1-2]n[8-9]"), (Names{"r1n8", "r1n9", "r2n8", "r2n9"}));
  EXPECT_EQ(expand_hostlist("a[7],b[098-100]"), (Names{"a7", "b098", "b099", "b100"}));
  EXPECT_EQ(expand_hostlist("leaf[0-1]"), (Names{"leaf0", "leaf1"}));
}

TEST(Hostlist, MistakesSayWhat) {
  auto why = [](const std::string& e) {
    try {
      expand_hostlist(e);
    } catch (const std::invalid_argument& x) {
      return std::string(x.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(why("node[1-4").find("unclosed '['"), std::string::npos);
  EXPECT_NE(why("node1-4]").find("']' without '['"), std::string::npos);
  EXPECT_NE(why("node[5-3]").find("runs backwards"), std::string::npos);
  EXPECT_NE(why("node[a-b]").find("a number or a range"), std::string::npos);
  EXPECT_NE(why("n1,,n2").find("empty item"), std::string::npos);
  EXPECT_NE(why("n[0-999999999]").find("more than 65536"), std::string::npos);
  EXPECT_NE(why("a[0-999]b[0-999]").find("more than 65536"), std::string::npos) << "a product is bounded too";
  EXPECT_NE(why("n[[1-2]]").find("unclosed '['"), std::string::npos) << "no nesting";
  EXPECT_NE(why("no de").find("character ' '"), std::string::npos);
  EXPECT_NE(why("").find("empty host list"), std::string::npos);
}

TEST(Hostlist, RandomBytesNeverCrashOrGrowPastTheLimit) {
  std::mt19937 rng(28);
  const std::string alphabet = "n0123456789[],-x";
  for (int i = 0; i < 20000; ++i) {
    std::string s(rng() % 24, ' ');
    for (auto& c : s) c = alphabet[rng() % alphabet.size()];
    try {
      EXPECT_LE(expand_hostlist(s, 1000).size(), 1000u) << s;
    } catch (const std::invalid_argument&) {
    }
  }
}

const char* kTwoRacks =
    "# two racks\n"
    "SwitchName=leaf0 Nodes=node[01-04]\n"
    "switchname=leaf1 nodes=node[05-08] LinkSpeed=100   # keys in any case\n"
    "\n"
    "SwitchName=spine Switches=leaf[0-1]\n";

TEST(Fabric, ParsesATwoLevelTree) {
  const auto f = parse_fabric(kTwoRacks, "t.conf");
  ASSERT_EQ(f.switches.size(), 3u);
  EXPECT_EQ(f.switches[0].name, "leaf0");
  EXPECT_EQ(f.switches[0].nodes, (Names{"node01", "node02", "node03", "node04"}));
  EXPECT_EQ(f.switches[1].line, 3);
  EXPECT_EQ(f.switches[1].link_speed, 100);
  EXPECT_EQ(f.switches[2].switches, (Names{"leaf0", "leaf1"}));
  const auto j = fabric_json(f);
  EXPECT_EQ(j["file"], "t.conf");
  EXPECT_EQ(j["switches"][1]["link_speed"], 100);
  EXPECT_EQ(j["switches"][2]["switches"][1], "leaf1");
}

TEST(Fabric, EachHostsLeafIsItsPlaceAmongTheLeaves) {
  // The spine lists no nodes: leaf0 is leaf 0, leaf1 is leaf 1; a host no leaf lists is -1.
  const auto f = parse_fabric(kTwoRacks, "t.conf");
  EXPECT_EQ(leaf_of_hosts(f, {"node05", "node01", "elsewhere", "node08"}), (std::vector<int>{1, 0, -1, 1}));
}

std::string error_of(const std::string& text) {
  try {
    parse_fabric(text, "t.conf");
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(Fabric, EachMistakeIsOneLineWithFileAndLine) {
  EXPECT_EQ(error_of("SwitchName=a Nodes=n1\nSwitchName=b Nodez=n2\n"),
            "t.conf:2: unknown key 'Nodez' (known: SwitchName, Nodes, Switches, LinkSpeed)");
  EXPECT_EQ(error_of("Nodes=n1\n"),
            "t.conf:1: no SwitchName= (each line describes one switch: SwitchName=NAME Nodes=... or Switches=...)");
  EXPECT_EQ(error_of("SwitchName=a\n"), "t.conf:1: switch a connects nothing: give Nodes= or Switches=");
  EXPECT_EQ(error_of("SwitchName=a Nodes=n1\nSwitchName=a Nodes=n2\n"), "t.conf:2: switch a is described twice (first on line 1)");
  EXPECT_EQ(error_of("SwitchName=s Switches=leaf[1-2]\nSwitchName=leaf1 Nodes=n1\n"),
            "t.conf:1: Switches= names leaf2, which no SwitchName= line describes");
  EXPECT_EQ(error_of("SwitchName=a Nodes=n[1-2]\nSwitchName=b Nodes=n2\n"), "t.conf:2: node n2 hangs off two switches (a and b)");
  EXPECT_EQ(error_of("SwitchName=a Nodes=n1\nSwitchName=s Switches=a\nSwitchName=t Switches=a\n"),
            "t.conf:3: switch a is below two switches (s and t); a tree gives each one parent");
  EXPECT_NE(error_of("SwitchName=a Switches=b\nSwitchName=b Switches=a\n").find("its own ancestor"), std::string::npos);
  EXPECT_NE(error_of("SwitchName=a Nodes=n[1-3\n").find("t.conf:1: Nodes=n[1-3: unclosed '['"), std::string::npos);
  EXPECT_NE(error_of("SwitchName=a Nodes=n[0-99999999]\n").find("more than 65536 names"), std::string::npos);
  EXPECT_EQ(error_of("SwitchName=a Nodes=n1 LinkSpeed=fast\n"), "t.conf:1: LinkSpeed=fast: a whole number");
  EXPECT_EQ(error_of("SwitchName=a Nodes=n1 junk\n"),
            "t.conf:1: 'junk' is not KEY=VALUE (a line is SwitchName=NAME Nodes=HOSTLIST or Switches=HOSTLIST)");
  EXPECT_NE(error_of("BlockName=b1 Nodes=n[1-4]\n").find("block topology is not read"), std::string::npos);
  EXPECT_NE(error_of("# only a comment\n").find("t.conf: no SwitchName= line"), std::string::npos);
}

TEST(Fabric, TheWholeFileIsBoundedNotJustOneList) {
  std::string text;
  for (int i = 0; i < 10; ++i) text += "SwitchName=s" + std::to_string(i) + " Nodes=r" + std::to_string(i) + "n[0-9999]\n";
  EXPECT_NE(error_of(text).find("more than"), std::string::npos);
}

TEST(Fabric, MissingFileSaysSo) {
  try {
    load_fabric("/nonexistent/topology.conf");
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/topology.conf: no such file (check the path)");
  }
}

// A hostile line quotes only its start: a 6,000-character hostlist made a 6,158-character error line.
TEST(Fabric, AHugeLineIsQuotedInPart) {
  const std::string e = error_of("SwitchName=a Nodes=node[0" + std::string(6000, '[') + "\n");
  EXPECT_EQ(e.rfind("t.conf:1: Nodes=node[0[[", 0), 0u) << e;
  EXPECT_LT(e.size(), 400u);
}

}  // namespace
}  // namespace gpunet::topo
