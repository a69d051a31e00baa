#include "report/analysis/analysis.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include "report/analysis/bond_streams.hpp"
#include "report/analysis/direction.hpp"
#include "report/analysis/load_during.hpp"
#include "report/analysis/path_ceilings.hpp"
#include "report/analysis/tcp_flow_cpu.hpp"
#include "report/model/json_access.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

Ceiling in_unit(const Ceiling& c, const std::string& unit) { return unit == "GB/s" ? to_GBps(c) : to_Gbps(c); }

// Records of one size sweep share their figure's identity but for the size.
std::string sweep_key(const Figure& f) {
  Figure g;
  g.metric = f.metric;
  g.subject = f.subject;
  g.parameters = f.parameters;
  g.parameters.erase("bytes");
  return figure_key(g);
}

// Everything figure_ceiling() reads from a record: records that agree on all of it share a ceiling.
// In the order extra's keys sort in, so that one walk through extra finds them all.
constexpr std::string_view kPathKeys[] = {"dst_host", "dst_link", "gpu_index", "intra", "link",
                                          "nccl",     "nics_per_node", "nodes", "pcie",  "rdma"};
constexpr size_t kDstHostKey = 0, kLinkKey = 4, kDstLinkKey = 1;  // their places in kPathKeys
using PathValues = std::array<const json*, std::size(kPathKeys)>;
// A flow's receiver as a JSON text when the record holds it apart from extra, one per host: so that a
// held one and one in extra compare and hash alike.
using HeldHosts = std::unordered_map<std::string, json>;

// What of a figure's subject its ceiling reads: of a flow's, only the receiver, whose shaper may be
// taken as egress only (tcp_flow_ceiling), so that the flows into one host share one ceiling; of any
// other figure's, all of it.
std::string ceiling_subject(const Figure& f) { return f.path == PathModel::tcp_flow ? f.subject.dst_host : subject_key(f.subject); }

// The record's value of each path key (null where it has none): in extra, or the link facts and the
// receiver held apart from it.
PathValues path_values(const Record& r, HeldHosts& held_hosts) {
  PathValues v{};
  if (r.extra.is_object()) {
    size_t k = 0;
    for (const auto& [key, value] : r.extra.get_ref<const json::object_t&>()) {
      while (k < v.size() && kPathKeys[k] < key) ++k;
      if (k == v.size()) break;
      if (kPathKeys[k] == key) v[k] = &value;
    }
  }
  if (r.link) v[kLinkKey] = r.link.get();
  if (r.dst_link) v[kDstLinkKey] = r.dst_link.get();
  if (const std::string* dst = r.flow.text(kPathKeys[kDstHostKey]))
    v[kDstHostKey] = &held_hosts.try_emplace(*dst, *dst).first->second;
  return v;
}

// The hash of a path value. A results.jsonl's records share their link facts (one object a host):
// each object is hashed once.
class PathValueHashes {
 public:
  size_t operator()(const json& v) {
    if (!v.is_object()) return std::hash<json>{}(v);
    const auto [it, fresh] = known_.try_emplace(&v, 0);
    if (fresh) it->second = std::hash<json>{}(v);
    return it->second;
  }

 private:
  std::unordered_map<const json*, size_t> known_;
};

size_t path_hash(const Record& r, const PathValues& values, PathValueHashes& value_hash) {
  size_t h = std::hash<std::string>{}(r.host);
  auto mix = [&h](size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  if (r.figure) {
    mix(std::hash<std::string>{}(r.figure->metric));
    mix(std::hash<std::string>{}(ceiling_subject(*r.figure)));
    mix(static_cast<size_t>(r.figure->path));
  }
  mix(static_cast<size_t>(r.ranks));
  for (const json* v : values)
    if (v) mix(value_hash(*v));
  return h;
}

bool same_figure_path(const Figure& a, const Figure& b) {
  return a.metric == b.metric && a.unit == b.unit && a.path == b.path && a.better == b.better &&
         a.sending_share == b.sending_share && a.receiving_share == b.receiving_share &&
         ceiling_subject(a) == ceiling_subject(b);
}

bool same_path(const Record& a, const PathValues& va, const Record& b, const PathValues& vb) {
  if (a.host != b.host || a.ranks != b.ranks || (a.status == Status::skipped) != (b.status == Status::skipped) ||
      a.figure.has_value() != b.figure.has_value() || (a.figure && !same_figure_path(*a.figure, *b.figure)))
    return false;
  if (a.extra.is_object() != b.extra.is_object()) return false;
  for (size_t k = 0; k < va.size(); ++k)
    if ((va[k] == nullptr) != (vb[k] == nullptr) || (va[k] != vb[k] && *va[k] != *vb[k])) return false;
  return true;
}

// The efficiency of a passed record with a figure and a known ceiling.
std::optional<double> efficiency_of(const Record& r, const Ceiling& c) {
  if (r.figure && c.known && c.value > 0 && r.status == Status::passed) return r.figure->value / c.value;
  return std::nullopt;
}

void judge(RecordAnalysis& a, const Record& r) { a.efficiency = efficiency_of(r, a.ceiling); }

bool is_pair(const Record& r) { return r.figure && r.figure->subject.kind == SubjectKind::pair; }

// Pairs of one test compare with each other: "tcp.goodput|matrix|1 stream".
std::string pair_test_key(const Figure& f) {
  const auto param = [&f](const char* k) {
    const auto it = f.parameters.find(k);
    return it == f.parameters.end() ? std::string() : it->second;
  };
  return f.metric + '\x1f' + param("test") + '\x1f' + param("streams") + '\x1f' + param("bytes");
}

const char* ceiling_source(PathModel m) {
  switch (m) {
    case PathModel::tcp_flow:
      return "report/CEILINGS.md \u00a71.3 (TCP over Ethernet) at the slower end of the path: its --link-rate, tc tbf rate "
             "or NIC speed (extra.link, extra.dst_link)";
    case PathModel::tcp_link: return "report/CEILINGS.md \u00a71.3 (TCP over Ethernet) at the root host's link (extra.link)";
    case PathModel::rdma_port: return "report/CEILINGS.md \u00a71.4, \u00a72 (RoCEv2, InfiniBand) at the binding end's port (extra.rdma)";
    case PathModel::pcie_link: return "report/CEILINGS.md \u00a73 (PCIe) at the device's link (extra.pcie, the topology)";
    case PathModel::collective:
      return "report/CEILINGS.md \u00a75.4 (Ring bus bandwidth) over the intra-node path and the NICs (extra.intra, extra.nccl, "
             "extra.link, the topology)";
    case PathModel::none: return "";
  }
  return "";
}

FigureCeiling to_figure_ceiling(const Ceiling& c, PathModel m, const std::string& explanation) {
  FigureCeiling f;
  f.known = c.known;
  if (!c.known) {
    f.reason = c.unknown_reason;
    f.explanation = explanation;
    return f;
  }
  f.value = c.value;
  f.unit = c.unit;
  f.derivation = c.derivation;
  f.source = ceiling_source(m);
  f.explanation = explanation;
  return f;
}

}  // namespace

const Figure* record_figure(const Record& r) {
  return r.figure && r.figure->better == Better::higher ? &*r.figure : nullptr;
}

int record_nodes(const Record& r, const Provenance& p) {
  if (auto n = jsonx::integer(r.extra, "nodes"); n && *n > 0) return *n;
  int total = 0;
  for (int k : p.ranks_per_node) total += k;
  if (!p.ranks_per_node.empty() && (r.ranks == total || r.ranks == 0)) return static_cast<int>(p.ranks_per_node.size());
  if (!p.hosts.empty() && r.ranks == static_cast<int>(p.hosts.size()))
    return static_cast<int>(std::set<std::string>(p.hosts.begin(), p.hosts.end()).size());
  return 0;
}

namespace {

// The ceiling of the path a record's figure took, in the figure's unit.
// `egress_only`: hosts whose shaper does not bound what they receive (hosts_receiving_above_shaper).
Ceiling record_ceiling(const Record& r, const Provenance& p, const TopologyView& topo,
                       const std::set<std::string>& egress_only) {
  if (r.status == Status::skipped) return unknown_ceiling("not measured (skipped)");
  if (!r.figure) return unknown_ceiling("the record carries no figure");
  const Figure& f = *r.figure;
  Ceiling c;
  switch (f.path) {
    case PathModel::none:
      return unknown_ceiling(f.better == Better::lower ? "a latency figure has no bandwidth ceiling"
                                                       : "no ceiling model applies to " + f.metric);
    case PathModel::tcp_flow:
      c = tcp_flow_ceiling(link_facts(r, LinkEnd::own), link_facts(r, LinkEnd::destination), f.sending_share,
                           f.receiving_share,
                           egress_only.count(extra_string(r, "dst_host").value_or(f.subject.dst_host)) > 0);
      break;
    case PathModel::tcp_link: {  // the root's link: what it receives in many-to-one, else what it sends
      const auto test = f.parameters.find("test");
      const bool incast = test != f.parameters.end() && test->second == "many-to-one";
      const json& link = link_facts(r, LinkEnd::own);
      c = incast ? incoming_link_ceiling(link, egress_only.count(r.host) > 0) : link_ceiling(link);
      break;
    }
    case PathModel::rdma_port: c = rdma_ceiling(jsonx::section(r.extra, "rdma")); break;
    case PathModel::pcie_link: {
      const json& pcie = jsonx::section(r.extra, "pcie");
      const auto gpu = f.subject.kind == SubjectKind::gpu ? std::optional<int>(std::stoi(f.subject.device)) : std::nullopt;
      c = pcie_ceiling(pcie, gpu ? topo.gpu(r.host, *gpu) : nullptr);
      break;
    }
    case PathModel::collective: c = collective_ceiling(r, record_nodes(r, p), topo); break;
  }
  return in_unit(c, f.unit);
}

// One record alone: its own flow is the only evidence about the receiver's shaper.
std::set<std::string> own_evidence(const Record& r) { return hosts_receiving_above_shaper({r}); }

}  // namespace

FigureCeiling figure_ceiling(const Record& r, const Provenance& p, const TopologyView& topo) {
  return to_figure_ceiling(record_ceiling(r, p, topo, own_evidence(r)), r.figure ? r.figure->path : PathModel::none, "");
}

void attach_ceiling(Record& r, const Provenance& p, const TopologyView& topo) {
  if (!r.figure) return;
  RecordAnalysis a;
  a.ceiling = record_ceiling(r, p, topo, own_evidence(r));
  judge(a, r);
  r.figure->ceiling = std::make_shared<const FigureCeiling>(to_figure_ceiling(a.ceiling, r.figure->path, ""));
  r.figure->efficiency = a.efficiency;
}

RecordAnalysis analyze_record(const Record& r, const Report& rep, const TopologyView& topo) {
  RecordAnalysis a;
  a.ceiling = record_ceiling(r, rep.provenance, topo, hosts_receiving_above_shaper(rep.results));
  judge(a, r);
  return a;
}

void analyze(Report& rep, const AnalysisOptions& opt) {
  attach_host_load(rep);  // the counters' loads in the provenance and on the records measured then
  const TopologyView topo(rep.topology);
  // Each record's ceiling, held once per distinct path, and its efficiency.
  std::deque<Ceiling> ceilings;
  std::vector<const Ceiling*> ceiling_of(rep.results.size());
  std::vector<std::optional<double>> efficiency(rep.results.size());
  std::unordered_map<std::string, SweepPeak> peaks;
  std::unordered_map<std::string, double> best_pair;
  std::vector<const double*> best_of_test(rep.results.size());  // each pair record's entry in best_pair
  std::vector<std::string> keys(rep.results.size());
  const auto egress_only = hosts_receiving_above_shaper(rep.results);
  // Records of one sweep share their path: each distinct path is worked out once.
  struct Exemplar {
    const Record* record;
    PathValues values;
    const Ceiling* ceiling;
  };
  std::unordered_map<size_t, std::vector<Exemplar>> memo;
  PathValueHashes value_hash;
  HeldHosts held_hosts;
  for (size_t i = 0; i < rep.results.size(); ++i) {
    const Record& r = rep.results[i];
    const PathValues values = path_values(r, held_hosts);
    auto& bucket = memo[path_hash(r, values, value_hash)];
    const Ceiling* known = nullptr;
    for (const auto& e : bucket)
      if (same_path(*e.record, e.values, r, values)) known = e.ceiling;
    if (!known) {
      known = &ceilings.emplace_back(record_ceiling(r, rep.provenance, topo, egress_only));
      bucket.push_back({&r, values, known});
    }
    ceiling_of[i] = known;
    const auto& eff = efficiency[i] = efficiency_of(r, *known);
    if (!eff) continue;
    if (is_pair(r)) {
      auto [it, fresh] = best_pair.try_emplace(pair_test_key(*r.figure), *eff);
      if (!fresh) it->second = std::max(it->second, *eff);
      best_of_test[i] = &it->second;
    }
    if (!r.figure->parameters.count("bytes")) continue;
    keys[i] = sweep_key(*r.figure);
    auto [it, fresh] = peaks.try_emplace(keys[i], SweepPeak{*eff, r.bytes});
    if (!fresh && *eff > it->second.efficiency) it->second = SweepPeak{*eff, r.bytes};
  }

  // The figures of one path with the same explanation of their gap (most have none; the slow pairs of
  // a matrix share a few dozen, by their rounded efficiency) hold one ceiling.
  std::map<std::pair<const Ceiling*, PathModel>, std::map<std::string, std::shared_ptr<const FigureCeiling>, std::less<>>> held;
  const auto shared_ceiling = [&](const Ceiling& c, PathModel m, std::string explanation) {
    auto& of_path = held[{&c, m}];
    auto it = of_path.find(explanation);
    if (it == of_path.end()) {
      auto made = std::make_shared<const FigureCeiling>(to_figure_ceiling(c, m, explanation));
      it = of_path.emplace(std::move(explanation), std::move(made)).first;
    }
    return it->second;
  };
  int passed = 0, failed = 0, skipped = 0, timed_out = 0, wrong = 0, below = 0, above = 0, none = 0;
  std::set<std::string> below_sweeps;
  for (size_t i = 0; i < rep.results.size(); ++i) {
    Record& r = rep.results[i];
    const Ceiling& ceiling = *ceiling_of[i];
    const auto& eff = efficiency[i];
    switch (r.status) {
      case Status::passed: ++passed; break;
      case Status::failed: ++failed; break;
      case Status::skipped: ++skipped; break;
      case Status::timed_out: ++timed_out; break;
    }
    if (r.wrong > 0 || r.check == "wrong") ++wrong;
    GapContext ctx;
    if (!keys[i].empty()) ctx.sweep = peaks.at(keys[i]);
    if (const double* best = best_of_test[i]) {
      ctx.best_pair = *best;
    } else if (is_pair(r)) {  // pair records without an efficiency have no entry of their own
      if (const auto it = best_pair.find(pair_test_key(*r.figure)); it != best_pair.end()) ctx.best_pair = it->second;
    }
    const auto& peak = ctx.sweep;
    std::string explanation;
    if (!eff) {
      if (r.status != Status::skipped) ++none;
      // No ceiling to measure against (loopback): a saturated core still says what the figure measured.
      if (r.status == Status::passed) explanation = host_cpu_limit(r).value_or("");
    } else if (*eff < opt.threshold || *eff > opt.over_ceiling) {
      explanation = explain_gap(r, ceiling, *eff, ctx, topo, opt);
      if (*eff > opt.over_ceiling) {
        ++above;
      } else if (!peak || peak->efficiency < opt.threshold) {
        // A sweep counts once, by its best size: small sizes are latency-bound by nature.
        if (!peak || below_sweeps.insert(keys[i]).second) ++below;
      }
    }
    if (r.figure) {
      r.figure->ceiling = shared_ceiling(ceiling, r.figure->path, std::move(explanation));
      r.figure->efficiency = eff;
    }
  }

  const std::string verdict = failed + timed_out + wrong > 0 ? "FAIL" : below > 0 ? "WARN" : "PASS";
  std::vector<std::string> parts;
  if (failed) parts.push_back(std::to_string(failed) + " failed");
  if (timed_out) parts.push_back(std::to_string(timed_out) + " timed out");
  if (wrong) parts.push_back(std::to_string(wrong) + " with wrong results");
  if (below) parts.push_back(std::to_string(below) + " below " + format_percent(opt.threshold) + " of their ceiling");
  std::string summary = verdict + ": " + std::to_string(rep.results.size()) + " records";
  if (parts.empty()) summary += verdict == "PASS" ? ", none failed, every figure with a known ceiling reaches " +
                                                        format_percent(opt.threshold) + " of it at its best size"
                                                  : "";
  for (size_t i = 0; i < parts.size(); ++i) summary += (i ? ", " : "; ") + parts[i];
  if (skipped) summary += " (" + std::to_string(skipped) + " skipped)";
  if (!rep.extra.is_object()) rep.extra = json::object();
  rep.extra["analysis"] = {{"threshold", opt.threshold},
                           {"verdict", verdict},
                           {"summary", summary},
                           {"counts",
                            {{"records", rep.results.size()},
                             {"passed", passed},
                             {"failed", failed},
                             {"skipped", skipped},
                             {"timed_out", timed_out},
                             {"wrong", wrong},
                             {"below_threshold", below},
                             {"above_ceiling", above},
                             {"no_ceiling", none}}}};
  // Measured findings on what the topology shows: a bond whose streams stayed on one member.
  if (!rep.findings.is_array()) rep.findings = json::array();
  for (const auto& f : bond_stream_findings(rep))
    if (std::find(rep.findings.begin(), rep.findings.end(), f) == rep.findings.end()) rep.findings.push_back(f);
}

}  // namespace gpunet::report
