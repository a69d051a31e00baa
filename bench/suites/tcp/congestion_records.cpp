#include "bench/suites/tcp/congestion_records.hpp"

#include "report/analysis/congestion.hpp"

namespace gpunet::bench::tcp {

using report::Status;

namespace {

report::Record congestion_base(const std::string& measure, const CongestionLoad& load) {
  report::Record rec;
  rec.suite = "tcp";
  rec.name = "congestion";
  rec.variant = measure;
  rec.extra["measure"] = measure;
  rec.extra["congestors"] = load.congestors;
  rec.extra["congestor_flows"] = {{"incast", load.incast_flows}, {"all_to_all", load.all_to_all_flows},
                                  {"failed", load.failed_flows}};
  rec.extra["pattern"] = "incast into the victims' receivers and all-to-all among the congestors";
  rec.extra["time_s"] = load.time_s;
  rec.extra["latency_s"] = load.latency_s;
  rec.extra["cif_is"] = "congested / isolated for latency, isolated / congested for bandwidth: above 1 is worse";
  return rec;
}

report::Figure cif_figure(const std::string& measure, double cif, report::Subject subject) {
  report::Figure f;
  f.metric = report::congestion_metric(measure);
  f.value = cif;
  f.unit = report::kCongestionUnit;
  f.better = report::Better::lower;
  f.subject = std::move(subject);
  f.parameters = {{"test", "congestion"}};
  return f;
}

report::Record victim_record(const VictimFigures& v, const report::CongestionMeasure& m, const std::vector<Node>& nodes,
                             const CongestionLoad& load) {
  const Node& src = nodes[static_cast<size_t>(v.victim.src)];
  const Node& dst = nodes[static_cast<size_t>(v.victim.dst)];
  auto rec = congestion_base(m.key, load);
  rec.ranks = 2;
  rec.host = src.host;
  rec.rank = src.rank;
  rec.extra["victim"] = src.host + " -> " + dst.host;
  rec.extra["src_host"] = src.host;
  rec.extra["dst_host"] = dst.host;
  rec.extra["unit"] = m.unit;
  const auto it = v.measures.find(m.key);
  const MeasuredPair mp = it == v.measures.end() ? MeasuredPair{0, 0, Status::failed, "not measured"} : it->second;
  rec.extra["isolated"] = mp.isolated;
  rec.extra["congested"] = mp.congested;
  rec.status = mp.status;
  rec.reason = mp.reason;
  const auto cif = report::congestion_impact(mp.isolated, mp.congested, m.better);
  if (mp.status == Status::passed && !cif) {
    rec.status = Status::failed;
    rec.reason = "no CIF: a figure is zero (isolated " + std::to_string(mp.isolated) + ", congested " +
                 std::to_string(mp.congested) + " " + m.unit + ")";
  }
  if (rec.status == Status::passed) {
    rec.extra["cif"] = *cif;
    rec.figure = cif_figure(m.key, *cif, report::pair_subject(src.host, src.rank, dst.host, dst.rank));
  }
  return rec;
}

report::Record overall_record(const std::vector<report::Record>& victims, const report::CongestionMeasure& m,
                              const std::vector<Node>& nodes, const CongestionLoad& load) {
  auto rec = congestion_base(m.key, load);
  rec.ranks = static_cast<int>(nodes.size());
  rec.host = nodes.empty() ? "" : nodes[0].host;
  rec.extra["victim"] = "all victims";
  rec.extra["unit"] = m.unit;
  std::vector<double> cifs;
  std::vector<std::string> names;
  double iso = 0, con = 0;
  for (const auto& v : victims) {
    if (v.variant != m.key || v.status != Status::passed || !v.figure) continue;
    cifs.push_back(v.figure->value);
    names.push_back(v.extra.at("victim").get<std::string>());
    iso += v.extra.at("isolated").get<double>();
    con += v.extra.at("congested").get<double>();
  }
  const auto o = report::congestion_overall(cifs);
  rec.extra["victims"] = cifs.size();
  if (!o) {
    rec.status = Status::failed;
    rec.reason = "no victim's " + std::string(m.label) + " was measured both alone and congested";
    return rec;
  }
  const double n = static_cast<double>(cifs.size());
  rec.extra["isolated"] = iso / n;
  rec.extra["congested"] = con / n;
  rec.extra["mean"] = o->mean;
  rec.extra["worst"] = o->worst;
  rec.extra["worst_victim"] = names[o->worst_index];
  rec.figure = cif_figure(m.key, o->mean, report::cluster_subject(static_cast<int>(nodes.size())));
  rec.figure->parameters["statistic"] = "mean";
  return rec;
}

}  // namespace

std::vector<report::Record> congestion_records(const std::vector<VictimFigures>& victims, const std::vector<Node>& nodes,
                                               const CongestionLoad& load) {
  std::vector<report::Record> out;
  for (const auto& m : report::congestion_measures()) {
    std::vector<report::Record> mine;
    for (const auto& v : victims) mine.push_back(victim_record(v, m, nodes, load));
    auto overall = overall_record(mine, m, nodes, load);
    for (auto& r : mine) out.push_back(std::move(r));
    out.push_back(std::move(overall));
  }
  return out;
}

}  // namespace gpunet::bench::tcp
