// A busy host is not a slower network: SLOWER figures measured while one of their hosts was busy with
// other work become UNCERTAIN with the reason, and the run verdict says which hosts were busy.
#include <gtest/gtest.h>

#include "report/judge/host_load.hpp"
#include "report/judge/run_verdict.hpp"

using namespace gpunet::report;
using nlohmann::json;

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
  const auto v = run_verdict_of(rep);  // said among the reasons, judging nothing
  EXPECT_EQ(v.reasons.back().rfind("hosts: node-1 and node-3 were busy", 0), 0u) << v.reasons.back();
}
