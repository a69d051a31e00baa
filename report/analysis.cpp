#include "report/analysis.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "report/json_access.hpp"
#include "report/path_ceilings.hpp"
#include "report/text_format.hpp"

namespace gpunet::report {

using nlohmann::json;

namespace {

Ceiling in_unit(const Ceiling& c, const std::string& unit) { return unit == "GB/s" ? to_GBps(c) : to_Gbps(c); }

// Records of one size sweep share everything but the size.
std::string sweep_key(const Record& r) {
  return r.suite + '\x1f' + r.name + '\x1f' + r.variant + '\x1f' + r.host + '\x1f' + std::to_string(r.rank) + '\x1f' +
         std::to_string(r.ranks) + '\x1f' + r.dtype + '\x1f' + r.op + '\x1f' +
         std::to_string(jsonx::integer(r.extra, "nodes").value_or(0));
}

// Everything record_ceiling() reads from a record: records that agree on all of it share a ceiling.
constexpr const char* kPathKeys[] = {"link", "rdma", "pcie", "nccl", "intra", "nodes", "nics_per_node", "gpu_index"};

size_t path_hash(const Record& r) {
  size_t h = std::hash<std::string>{}(r.host);
  auto mix = [&h](size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  mix(std::hash<std::string>{}(r.suite));
  mix(std::hash<std::string>{}(r.name));
  mix(std::hash<std::string>{}(r.variant));
  mix(static_cast<size_t>(r.ranks));
  if (r.extra.is_object())
    for (const char* key : kPathKeys)
      if (const auto it = r.extra.find(key); it != r.extra.end()) mix(std::hash<json>{}(*it));
  return h;
}

bool same_path(const Record& a, const Record& b) {
  if (a.host != b.host || a.suite != b.suite || a.name != b.name || a.variant != b.variant || a.ranks != b.ranks ||
      (a.status == Status::skipped) != (b.status == Status::skipped) ||
      (a.time_us.samples > 0) != (b.time_us.samples > 0))
    return false;
  const auto fa = record_figure(a), fb = record_figure(b);
  if (fa.has_value() != fb.has_value() || (fa && (fa->label != fb->label || fa->unit != fb->unit))) return false;
  if (a.extra.is_object() != b.extra.is_object()) return false;
  if (!a.extra.is_object()) return true;
  for (const char* key : kPathKeys) {
    const auto ia = a.extra.find(key), ib = b.extra.find(key);
    const bool ha = ia != a.extra.end(), hb = ib != b.extra.end();
    if (ha != hb || (ha && *ia != *ib)) return false;
  }
  return true;
}

// The efficiency of a passed record with a figure and a known ceiling.
void judge(RecordAnalysis& a, const Record& r) {
  const auto fig = record_figure(r);
  if (fig && a.ceiling.known && a.ceiling.value > 0 && r.status == Status::passed) a.efficiency = fig->value / a.ceiling.value;
}

bool is_pair(const Record& r) {
  return jsonx::string(r.extra, "src_host").has_value() && jsonx::string(r.extra, "dst_host").has_value();
}

json ceiling_json(const RecordAnalysis& a, const std::string& explanation) {
  if (!a.ceiling.known) return json{{"known", false}, {"reason", a.ceiling.unknown_reason}};
  json j{{"known", true}, {"value", a.ceiling.value}, {"unit", a.ceiling.unit}, {"derivation", a.ceiling.derivation}};
  if (a.efficiency) j["efficiency"] = *a.efficiency;
  if (!explanation.empty()) j["explanation"] = explanation;
  return j;
}

}  // namespace

std::optional<Figure> record_figure(const Record& r) {
  if (auto v = jsonx::number(r.extra, "goodput_Gbps")) return Figure{*v, "Gb/s", "goodput"};
  if (auto v = jsonx::number(r.extra, "bw_Gbps")) return Figure{*v, "Gb/s", "bandwidth"};
  if (r.busbw_GBps > 0) return Figure{r.busbw_GBps, "GB/s", "busbw"};
  if (r.algbw_GBps > 0) return Figure{r.algbw_GBps, "GB/s", "algbw"};
  return std::nullopt;
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
Ceiling record_ceiling(const Record& r, const Report& rep, const TopologyView& topo) {
  if (r.status == Status::skipped) return unknown_ceiling("not measured (skipped)");
  const auto fig = record_figure(r);
  if (!fig)
    return unknown_ceiling(r.time_us.samples > 0 ? "a latency figure has no bandwidth ceiling"
                                                 : "the record carries no bandwidth figure");
  Ceiling c;
  if (fig->label == "busbw") {
    c = collective_ceiling(r, record_nodes(r, rep.provenance), topo);
  } else if (fig->label == "bandwidth" && r.extra.contains("rdma")) {
    c = rdma_ceiling(jsonx::section(r.extra, "rdma"));
  } else if (fig->label == "algbw" && (r.extra.contains("pcie") || r.suite == "pcie")) {
    const json& p = jsonx::section(r.extra, "pcie");
    const auto gpu = jsonx::integer(p, "gpu_index") ? jsonx::integer(p, "gpu_index") : jsonx::integer(r.extra, "gpu_index");
    c = pcie_ceiling(p, gpu ? topo.gpu(r.host, *gpu) : nullptr);
  } else {
    c = link_ceiling(jsonx::section(r.extra, "link"));
  }
  return in_unit(c, fig->unit);
}

}  // namespace

RecordAnalysis analyze_record(const Record& r, const Report& rep, const TopologyView& topo) {
  RecordAnalysis a;
  a.ceiling = record_ceiling(r, rep, topo);
  judge(a, r);
  return a;
}

void analyze(Report& rep, const AnalysisOptions& opt) {
  const TopologyView topo(rep.topology);
  std::vector<RecordAnalysis> results;
  results.reserve(rep.results.size());
  std::unordered_map<std::string, SweepPeak> peaks;
  std::unordered_map<std::string, double> best_pair;
  std::vector<std::string> keys(rep.results.size());
  // Records of one sweep share their path: each distinct path is worked out once.
  std::unordered_map<size_t, std::vector<std::pair<const Record*, Ceiling>>> memo;
  for (size_t i = 0; i < rep.results.size(); ++i) {
    const Record& r = rep.results[i];
    auto& bucket = memo[path_hash(r)];
    const Ceiling* known = nullptr;
    for (const auto& [exemplar, c] : bucket)
      if (same_path(*exemplar, r)) known = &c;
    if (!known) known = &bucket.emplace_back(&r, record_ceiling(r, rep, topo)).second;
    RecordAnalysis& a = results.emplace_back();
    a.ceiling = *known;
    judge(a, r);
    const auto& eff = results.back().efficiency;
    if (!eff) continue;
    if (is_pair(r)) {
      auto [it, fresh] = best_pair.try_emplace(r.suite + '\x1f' + r.name, *eff);
      if (!fresh) it->second = std::max(it->second, *eff);
    }
    if (r.bytes <= 0) continue;
    keys[i] = sweep_key(r);
    auto [it, fresh] = peaks.try_emplace(keys[i], SweepPeak{*eff, r.bytes});
    if (!fresh && *eff > it->second.efficiency) it->second = SweepPeak{*eff, r.bytes};
  }

  int passed = 0, failed = 0, skipped = 0, timed_out = 0, wrong = 0, below = 0, above = 0, none = 0;
  std::set<std::string> below_sweeps;
  for (size_t i = 0; i < rep.results.size(); ++i) {
    Record& r = rep.results[i];
    const RecordAnalysis& a = results[i];
    switch (r.status) {
      case Status::passed: ++passed; break;
      case Status::failed: ++failed; break;
      case Status::skipped: ++skipped; break;
      case Status::timed_out: ++timed_out; break;
    }
    if (r.wrong > 0 || r.check == "wrong") ++wrong;
    GapContext ctx;
    if (!keys[i].empty()) ctx.sweep = peaks.at(keys[i]);
    if (is_pair(r))  // pair records without an efficiency have no entry
      if (const auto it = best_pair.find(r.suite + '\x1f' + r.name); it != best_pair.end()) ctx.best_pair = it->second;
    const auto& peak = ctx.sweep;
    std::string explanation;
    if (!a.efficiency) {
      if (r.status != Status::skipped) ++none;
    } else if (*a.efficiency < opt.threshold || *a.efficiency > opt.over_ceiling) {
      explanation = explain_gap(r, a.ceiling, *a.efficiency, ctx, topo, opt);
      if (*a.efficiency > opt.over_ceiling) {
        ++above;
      } else if (!peak || peak->efficiency < opt.threshold) {
        // A sweep counts once, by its best size: small sizes are latency-bound by nature.
        if (!peak || below_sweeps.insert(keys[i]).second) ++below;
      }
    }
    if (!r.extra.is_object()) r.extra = json{{"original", r.extra}};
    r.extra["ceiling"] = ceiling_json(a, explanation);
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
}

}  // namespace gpunet::report
