// A busy host is not a slower network: SLOWER figures measured while one of their hosts was busy with
// other work become UNCERTAIN with the reason, and the run verdict says which hosts were busy.
#include <gtest/gtest.h>

#include "report/analysis/load_during.hpp"
#include "report/judge/figure_select.hpp"
#include "report/judge/host_load.hpp"
#include "report/judge/run_verdict.hpp"
#include "report/judge/verdicts_outputs.hpp"

using namespace gpunet::report;
using gpunet::json;

namespace {

Record load_record(const std::string& host, const std::string& suite, bool busy) {
  Record r;
  r.suite = "counters";
  r.name = suite;
  r.host = host;
  r.extra["host_load"] = {{"busy", busy}, {"others_pct", busy ? 97.0 : 2.0},
                          {"summary", "its CPUs were 97 % busy with other work during " + suite}};
  return r;
}

Comparison row(const std::string& key, std::vector<std::string> hosts) {
  Comparison c;
  c.key = key;
  c.change = Change::slower;
  c.reason = "U test p=1e-6";
  c.hosts = std::move(hosts);
  return c;
}

}  // namespace

TEST(HostLoad, SlowerWhileItsHostWasBusyIsUncertain) {
  Report rep;
  rep.results = {load_record("node-1", "mpi", true), load_record("node-2", "mpi", false),
                 load_record("node-2", "tcp", false)};
  const auto busy = busy_hosts(rep);
  ASSERT_EQ(busy.size(), 1u);
  EXPECT_EQ(busy[0].host, "node-1");
  BaselineComparison c;
  c.rows = {row("mpi/allreduce 4 KiB p50", {}),               // the whole cluster: node-1 was in it
            row("tcp/matrix goodput node-2->node-3", {"node-2", "node-3"}),  // tcp ran on quiet hosts
            row("mpi/pingpong node-2->node-3", {"node-2", "node-3"})};       // node-1 not involved
  discount_busy_hosts(c, busy);
  EXPECT_EQ(c.rows[0].change, Change::uncertain);
  EXPECT_EQ(c.rows[0].reason,
            "measured while node-1 was busy: its CPUs were 97 % busy with other work during mpi (without that: U test p=1e-6)");
  EXPECT_EQ(c.rows[1].change, Change::slower);
  EXPECT_EQ(c.rows[2].change, Change::slower);

  rep.results.push_back(load_record("node-3", "mpi", true));
  EXPECT_EQ(busy_hosts_text(busy_hosts(rep), 4),
            "node-1 and node-3 were busy with other work during mpi; figures measured then tell about the hosts more "
            "than about the network");
  EXPECT_EQ(busy_hosts_text(busy_hosts(rep), 2),
            "every one of the 2 hosts was busy with other work during mpi: a cause common to the hosts, not one "
            "node's network; figures measured then tell about the hosts");
  EXPECT_EQ(busy_hosts_text({}, 4), "");
  rep.provenance.hosts = {"node-1", "node-2", "node-3", "node-4"};
  const auto v = stored_judgement(rep).verdict;  // said among the reasons, judging nothing
  EXPECT_EQ(v.reasons.back().rfind("hosts: node-1 and node-3 were busy", 0), 0u) << v.reasons.back();
}

TEST(HostLoad, TheLoadIsInTheProvenanceAndOnTheRecordsMeasuredThen) {
  Report rep;
  rep.results = {load_record("node-1", "tcp", true), load_record("node-2", "tcp", false), load_record("node-3", "tcp", false),
                 load_record("node-1", "mpi", false)};
  rep.results[0].extra["host_load"]["steal_pct"] = 4.0;
  Record flow;  // a tcp flow node-2 -> node-3: the load of those two hosts during tcp
  flow.suite = "tcp", flow.name = "bandwidth", flow.host = "node-3";
  flow.figure = rate_figure("tcp.goodput", 0.9, "Gb/s", pair_subject("node-2", 1, "node-3", 2), PathModel::tcp_flow);
  Record allreduce;  // a figure of the whole cluster: every node's load during mpi
  allreduce.suite = "mpi", allreduce.name = "allreduce", allreduce.host = "node-1";
  allreduce.figure = time_figure("mpi.allreduce.time", 12, cluster_subject(3));
  Record topo;  // a suite without a load: nothing added
  topo.suite = "topo", topo.name = "node", topo.host = "node-1";
  rep.results.insert(rep.results.end(), {flow, allreduce, topo});
  attach_host_load(rep);
  attach_host_load(rep);  // idempotent

  ASSERT_EQ(rep.provenance.host_load.size(), 4u);
  EXPECT_EQ(rep.provenance.host_load[0].suite, "tcp");
  EXPECT_EQ(rep.provenance.host_load[0].host, "node-1");
  EXPECT_DOUBLE_EQ(rep.provenance.host_load[0].others_pct, 97.0);
  EXPECT_DOUBLE_EQ(rep.provenance.host_load[0].steal_pct, 4.0);
  EXPECT_TRUE(rep.provenance.host_load[0].busy);
  EXPECT_EQ(rep.results[4].extra["host_load_during"],
            json::parse(R"([{"host": "node-2", "others_pct": 2.0, "steal_pct": 0.0, "busy": false},
                            {"host": "node-3", "others_pct": 2.0, "steal_pct": 0.0, "busy": false}])"));
  ASSERT_EQ(rep.results[5].extra["host_load_during"].size(), 1u);
  EXPECT_EQ(rep.results[5].extra["host_load_during"][0]["host"], "node-1");
  EXPECT_FALSE(rep.results[6].extra.contains("host_load_during"));
  EXPECT_FALSE(rep.results[0].extra.contains("host_load_during")) << "the counters record keeps its own host_load";

  // The provenance's summary survives report.json, and a file without one (an older version) reads as none.
  json j = rep.provenance;
  ASSERT_TRUE(j.contains("host_load"));
  EXPECT_EQ(j["host_load"][0], json::parse(R"({"suite": "tcp", "host": "node-1", "others_pct": 97.0, "steal_pct": 4.0, "busy": true})"));
  EXPECT_EQ(j.get<Provenance>().host_load.size(), 4u);
  j.erase("host_load");
  EXPECT_TRUE(j.get<Provenance>().host_load.empty());
  Report old;
  old.results = {flow};
  attach_host_load(old);
  EXPECT_TRUE(old.provenance.host_load.empty());
  EXPECT_FALSE(json(old.provenance).contains("host_load"));
  EXPECT_FALSE(old.results[0].extra.contains("host_load_during"));
}

// A latency round of one second carries its own load: a second of other work on one host makes that
// figure UNCERTAIN (its key), while the suite as a whole was quiet and the other figures stay SLOWER.
TEST(HostLoad, AFigureMeasuredWhileItsHostWasBusyIsUncertain) {
  Report rep;
  rep.results = {load_record("node-1", "tcp", false), load_record("node-2", "tcp", false)};
  Record lat;  // node-1 -> node-2, measured while node-2 was busy
  lat.suite = "tcp", lat.name = "latency", lat.variant = "ping-pong", lat.host = "node-1", lat.bytes = 14;
  lat.figure = time_figure("tcp.latency", 23, pair_subject("node-1", 0, "node-2", 1));
  lat.figure->parameters = {{"test", "latency"}, {"bytes", "14"}};
  lat.extra["host_load_window"] = json::array(
      {{{"host", "node-1"}, {"busy", false}, {"others_pct", 3.0}, {"summary", "quiet"}},
       {{"host", "node-2"}, {"busy", true}, {"others_pct", 48.0},
        {"summary", "its CPUs were 48 % busy with other work during tcp latency round 2/2 (load 1.1 on 2 CPUs)"}}});
  Record other = lat;  // the same pair's figure of another size, measured on quiet hosts
  other.bytes = 4096;
  other.figure->parameters["bytes"] = "4096";
  other.extra.erase("host_load_window");
  rep.results.insert(rep.results.end(), {lat, other});
  const auto busy = busy_hosts(rep);
  ASSERT_EQ(busy.size(), 1u);
  EXPECT_EQ(busy[0].host, "node-2");
  const std::string key = figure_key(figure_fact_of(lat));
  EXPECT_EQ(busy[0].figure, key);
  BaselineComparison c;
  c.rows = {row(key, {"node-1", "node-2"}), row(figure_key(figure_fact_of(other)), {"node-1", "node-2"}),
            row("tcp/bandwidth/matrix goodput node-2 -> node-1", {"node-2", "node-1"})};
  ASSERT_NE(c.rows[0].key, c.rows[1].key);
  discount_busy_hosts(c, busy);
  EXPECT_EQ(c.rows[0].change, Change::uncertain);
  EXPECT_EQ(c.rows[0].reason,
            "measured while node-2 was busy: its CPUs were 48 % busy with other work during tcp latency round 2/2 "
            "(load 1.1 on 2 CPUs) (without that: U test p=1e-6)");
  EXPECT_EQ(c.rows[1].change, Change::slower) << "another figure of the same hosts, measured in a quiet window";
  EXPECT_EQ(c.rows[2].change, Change::slower) << "the suite as a whole was quiet";
}
