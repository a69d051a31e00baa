#include "bench/suites/tcp/fabric_test.hpp"

#include <algorithm>

#include "report/analysis/oversubscription.hpp"

namespace gpunet::bench::tcp {

namespace {

bool leaf_has_host(const FabricLeafInfo& leaf, const std::string& host) {
  return std::find(leaf.hosts.begin(), leaf.hosts.end(), host) != leaf.hosts.end();
}

// The participants below another leaf of the fabric (traffic to them crosses this leaf's uplink).
std::vector<int> hosts_in_other_racks(const std::vector<FabricLeafInfo>& leaves, size_t self, const std::vector<std::string>& hosts) {
  std::vector<int> out;
  for (size_t p = 0; p < hosts.size(); ++p)
    for (size_t l = 0; l < leaves.size(); ++l)
      if (l != self && leaf_has_host(leaves[l], hosts[p])) {
        out.push_back(static_cast<int>(p));
        break;
      }
  return out;
}

}  // namespace

std::vector<UplinkRun> uplink_runs(const std::vector<FabricLeafInfo>& leaves, const std::vector<std::string>& hosts) {
  std::vector<UplinkRun> out;
  for (size_t l = 0; l < leaves.size(); ++l) {
    UplinkRun run{leaves[l].leaf, leaves[l].parent, leaves[l].link_speed, {}, {}, ""};
    for (size_t p = 0; p < hosts.size(); ++p)
      if (leaf_has_host(leaves[l], hosts[p])) run.inside.push_back(static_cast<int>(p));
    const auto outside = hosts_in_other_racks(leaves, l, hosts);
    if (run.inside.empty())
      run.skip = "no node of the run is below " + run.leaf;
    else if (outside.empty())
      run.skip = "no node of the run is in another rack, so nothing crosses " + run.leaf + "'s uplink";
    for (size_t i = 0; run.skip.empty() && i < run.inside.size(); ++i) {
      const int partner = outside[i % outside.size()];
      run.flows.push_back({run.inside[i], partner});
      run.flows.push_back({partner, run.inside[i]});
    }
    out.push_back(std::move(run));
  }
  return out;
}

report::Record uplink_record(report::Record rec, const UplinkRun& run, const BandwidthTest& test,
                             const std::vector<report::Record>& flow_records, const std::vector<Node>& nodes) {
  using report::Status;
  rec.variant = run.leaf;
  rec.count = test.streams;
  report::UplinkDirection up, down;
  gpunet::json flows = gpunet::json::array();
  std::vector<std::string> hosts;
  for (const int p : run.inside) hosts.push_back(nodes[static_cast<size_t>(p)].host);
  bool ceilings_known = true;
  for (size_t k = 0; k < test.flows.size() && k < flow_records.size(); ++k) {
    const FlowSpec& f = test.flows[k];
    const Cell c = cell_of(flow_records[k], f);
    const std::string src = nodes[static_cast<size_t>(f.src)].host, dst = nodes[static_cast<size_t>(f.dst)].host;
    if (c.status != Status::passed && rec.status == Status::passed) {
      rec.status = c.status;
      rec.reason = "flow " + src + " -> " + dst + ": " + flow_records[k].reason;
    }
    ceilings_known = ceilings_known && c.ceiling_bps.has_value();
    const bool leaving = std::find(run.inside.begin(), run.inside.end(), f.src) != run.inside.end();
    report::UplinkDirection& d = leaving ? up : down;
    d.measured_Gbps += c.goodput_bps / 1e9;
    d.nodes_Gbps += c.ceiling_bps.value_or(0) / 1e9;
    flows.push_back({{"src_host", src}, {"dst_host", dst}, {"goodput_Gbps", c.goodput_bps / 1e9},
                     {"ceiling_Gbps", c.ceiling_bps ? gpunet::json(*c.ceiling_bps / 1e9) : gpunet::json(nullptr)}});
  }
  rec.extra["leaf"] = run.leaf;
  rec.extra["parent"] = run.parent;
  rec.extra["hosts"] = hosts;
  rec.extra["flows"] = flows;
  rec.extra["up_Gbps"] = up.measured_Gbps;
  rec.extra["up_nodes_Gbps"] = up.nodes_Gbps;
  rec.extra["down_Gbps"] = down.measured_Gbps;
  rec.extra["down_nodes_Gbps"] = down.nodes_Gbps;
  if (run.link_speed) rec.extra["link_speed"] = *run.link_speed;
  if (rec.status != Status::passed) return rec;
  const auto o = report::oversubscription(up, down);
  if (!ceilings_known || !o) {
    rec.status = Status::skipped;
    rec.reason = !ceilings_known ? "the link ceilings of " + run.leaf + "'s nodes are not known (give --link-rate RATE)"
                                 : "nothing crossed " + run.leaf + "'s uplink";
    return rec;
  }
  rec.extra["measured_Gbps"] = o->measured_Gbps;
  rec.extra["nodes_sum_Gbps"] = o->nodes_Gbps;
  rec.extra["direction"] = o->up ? "up" : "down";
  if (run.link_speed && *run.link_speed > 0) rec.extra["link_speed_fraction"] = o->measured_Gbps / *run.link_speed;
  rec.extra["summary"] = report::oversubscription_text(run.leaf, run.parent, *o);
  report::Subject s = report::group_subject("uplink", run.leaf, static_cast<int>(hosts.size()));
  s.dst_host = run.parent;
  report::Figure fig;
  fig.metric = report::kOversubscriptionMetric;
  fig.value = o->ratio;
  fig.unit = report::kOversubscriptionUnit;
  fig.better = report::Better::lower;
  fig.subject = s;
  fig.parameters = {{"test", "fabric"}, {"streams", std::to_string(test.streams)}};
  rec.figure = fig;
  return rec;
}

}  // namespace gpunet::bench::tcp
