// The tcp `fabric` test (--tcp-tests ...,fabric with --fabric FILE): one leaf after another, every node
// below it sends across its uplink at once, both ways; one fabric.oversubscription record per uplink
// (bench/suites/tcp/fabric_test.hpp, docs/fabric.md).
#include <algorithm>
#include <optional>

#include "bench/suites/tcp/exchange.hpp"
#include "bench/suites/tcp/fabric_test.hpp"
#include "bench/suites/tcp/suite_runner.hpp"
#include "topology/fabric.hpp"

namespace gpunet::bench::tcp {

using gpunet::json;

namespace {

// The leaves of the file that have an uplink (a switch above them), in file order.
std::vector<FabricLeafInfo> leaves_with_uplinks(const topo::Fabric& f) {
  std::vector<FabricLeafInfo> out;
  for (const auto& sw : f.switches) {
    if (sw.nodes.empty()) continue;
    for (const auto& up : f.switches)
      if (std::find(up.switches.begin(), up.switches.end(), sw.name) != up.switches.end()) {
        std::optional<double> speed;
        if (sw.link_speed) speed = static_cast<double>(*sw.link_speed);
        out.push_back({sw.name, up.name, sw.nodes, speed});
        break;
      }
  }
  return out;
}

json uplink_run_json(const UplinkRun& r) {
  json flows = json::array();
  for (const auto& f : r.flows) flows.push_back({f.src, f.dst});
  return {{"leaf", r.leaf}, {"parent", r.parent}, {"link_speed", r.link_speed ? json(*r.link_speed) : json(nullptr)},
          {"inside", r.inside}, {"flows", flows}, {"skip", r.skip}};
}

UplinkRun uplink_run_of(const json& j) {
  UplinkRun r;
  r.leaf = j.at("leaf").get<std::string>();
  r.parent = j.at("parent").get<std::string>();
  if (j.at("link_speed").is_number()) r.link_speed = j.at("link_speed").get<double>();
  r.inside = j.at("inside").get<std::vector<int>>();
  for (const auto& f : j.at("flows")) r.flows.push_back({f[0].get<int>(), f[1].get<int>()});
  r.skip = j.at("skip").get<std::string>();
  return r;
}

}  // namespace

std::vector<std::string> TcpSuite::node_hosts() const {
  std::vector<std::string> hosts;
  for (const auto& n : s_.nodes()) hosts.push_back(n.host);
  return hosts;
}

std::vector<int> TcpSuite::partner_groups() const {
  if (cfg_.pairs != "random" || !ctx_.fabric || s_.run.single_node) return {};
  const std::vector<int> leaf = topo::leaf_of_hosts(*ctx_.fabric, node_hosts());
  return names_two_groups(leaf) ? leaf : std::vector<int>{};
}

void TcpSuite::fabric() {
  const auto skip = [&](const std::string& variant, const std::string& why) {
    if (!root()) return;
    auto rec = ctx_.record("tcp", "fabric");
    rec.variant = variant;
    rec.status = report::Status::skipped;
    rec.reason = why;
    ctx_.emit(rec);
  };
  if (ctx_.cfg.fabric_path.empty())
    return skip("", "the fabric test needs --fabric FILE (Slurm's topology.conf) to know which nodes share an uplink");
  if (s_.run.single_node) return skip("", "all ranks share one node: there is no uplink to drive");
  json plan = json::array();
  if (root() && ctx_.fabric)
    for (const auto& r : uplink_runs(leaves_with_uplinks(*ctx_.fabric), node_hosts())) plan.push_back(uplink_run_json(r));
  plan = bcast_json(plan, ctx_.mpi.world, 0);
  if (plan.empty()) return skip("", "the fabric file names no leaf switch with an uplink");
  for (const auto& j : plan) {
    const UplinkRun run = uplink_run_of(j);
    if (!run.skip.empty()) {
      skip(run.leaf, run.skip);
      continue;
    }
    BandwidthTest t;
    t.variant = "fabric";
    t.label = "tcp fabric " + run.leaf + " <-> " + run.parent + " (" + std::to_string(run.inside.size()) + " nodes)";
    t.streams = cfg_.streams;
    t.bidir = true;
    t.flows = run.flows;
    const auto recs = bandwidth(t);
    if (root()) ctx_.emit(uplink_record(ctx_.record("tcp", "fabric"), run, t, recs, s_.nodes()));
  }
}

}  // namespace gpunet::bench::tcp
