#include "report/verdicts.hpp"

#include <algorithm>
#include <map>

#include "report/verdicts_facts.hpp"
#include "report/verdicts_topology.hpp"

namespace gpunet::report {

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string where(const Record& r) {
  std::string w = r.host.empty() ? "rank " + std::to_string(r.rank) : r.host;
  return r.variant.empty() ? w : w + " " + r.variant;
}

// The records one figure promise judges, or why there are none.
struct Picked {
  std::string label;               // "nccl/allreduce 64 MiB"
  std::vector<const Record*> ok;   // passed, at the chosen size, carrying the figure
  std::optional<Verdict> verdict;  // set when the promise is settled without a measurement
};

Picked pick(const Report& report, const FigureSelector& sel, bool largest, const std::string& promise,
            const std::string& limit) {
  const auto all = select_records(report, sel);
  const std::string what = sel.suite + "/" + sel.name + (sel.variant.empty() ? "" : " " + sel.variant);
  std::optional<int64_t> bytes = sel.bytes;
  for (const auto* r : all)
    if (!sel.bytes && r->status != Status::skipped && (!bytes || (largest ? r->bytes > *bytes : r->bytes < *bytes)))
      bytes = r->bytes;
  Picked p;
  p.label = promise + " " + what + (bytes ? " " + human_bytes(*bytes) : "");
  const auto settle = [&](VerdictStatus s, std::string measured, std::string reason) {
    p.verdict = Verdict{p.label, s, std::move(measured), limit, std::move(reason)};
    return p;
  };
  if (all.empty()) return settle(VerdictStatus::skip, "-", "the run has no " + what + " records (was the " + sel.suite + " suite run?)");
  if (!bytes) return settle(VerdictStatus::skip, "-", what + " was skipped: " + all.front()->reason);
  std::vector<std::string> sizes;
  for (const auto* r : all) {
    if (r->status != Status::skipped) sizes.push_back(human_bytes(r->bytes));
    if (r->bytes != *bytes) continue;
    if (r->status == Status::failed || r->status == Status::timed_out)
      return settle(VerdictStatus::fail, "-", "the measurement " + to_string(r->status) + " on " + where(*r) +
                                                   (r->reason.empty() ? "" : ": " + r->reason));
    if (r->status == Status::passed && (sel.figure.empty() || figure_value(*r, sel.figure))) p.ok.push_back(r);
  }
  if (!p.ok.empty()) return p;
  const bool at_size = std::any_of(all.begin(), all.end(), [&](const Record* r) { return r->bytes == *bytes && r->status == Status::passed; });
  if (at_size) return settle(VerdictStatus::skip, "-", "the " + what + " records carry no " + sel.figure);
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  std::string list;
  for (std::size_t i = 0; i < sizes.size() && i < 6; ++i) list += (i ? ", " : "") + sizes[i];
  return settle(VerdictStatus::skip, "-", "no " + what + " record at " + human_bytes(*bytes) +
                                              (list.empty() ? "" : " (measured: " + list + (sizes.size() > 6 ? ", ..." : "") + ")"));
}

Verdict bandwidth(const Report& report, const BandwidthPromise& b, std::size_t i) {
  const std::string unit = b.min ? figure_unit(b.sel.figure) : "%";
  const std::string limit = ">= " + fmt_num(b.min ? *b.min : *b.min_efficiency_pct) + " " + unit +
                            (b.min ? "" : " of the ceiling");
  const std::string promise = "bandwidth[" + std::to_string(i) + "]";
  auto p = pick(report, b.sel, true, promise, limit);
  if (p.verdict) return *p.verdict;
  p.label += " " + (b.min ? b.sel.figure : "efficiency");
  const Record* worst = nullptr;
  double value = 0;
  std::string explanation;
  for (const auto* r : p.ok) {
    std::optional<double> v = figure_value(*r, b.sel.figure);
    if (b.min_efficiency_pct) {
      const auto eff = r->figure ? r->figure->efficiency : std::nullopt;
      if (explanation.empty() && r->figure && r->figure->ceiling)  // the reason when the analysis found none
        explanation = !r->figure->ceiling->reason.empty() ? r->figure->ceiling->reason : r->figure->ceiling->explanation;
      v = eff ? std::optional<double>(*eff * 100) : std::nullopt;
    }
    if (v && (!worst || *v < value)) worst = r, value = *v;
  }
  if (!worst)
    return {p.label, VerdictStatus::skip, "-", limit,
            "no ceiling is known for these records" + (explanation.empty() ? std::string{} : ": " + explanation)};
  const std::string measured = fmt_num(value) + " " + unit + " (" + where(*worst) + ")";
  const double need = b.min ? *b.min : *b.min_efficiency_pct;
  if (value < need)
    return {p.label, VerdictStatus::fail, measured, limit, "the lowest of " + std::to_string(p.ok.size()) + " records is below the limit"};
  return {p.label, VerdictStatus::pass, measured, limit, "the lowest of " + std::to_string(p.ok.size()) + " records meets it"};
}

Verdict latency(const Report& report, const LatencyPromise& l, std::size_t i) {
  const std::string unit = figure_unit(l.sel.figure);
  const std::string limit = "<= " + fmt_num(l.max_us) + " " + unit;
  auto p = pick(report, l.sel, false, "latency[" + std::to_string(i) + "]", limit);
  if (p.verdict) return *p.verdict;
  p.label += " " + l.sel.figure;
  const Record* worst = p.ok.front();
  for (const auto* r : p.ok)
    if (*figure_value(*r, l.sel.figure) > *figure_value(*worst, l.sel.figure)) worst = r;
  const double value = *figure_value(*worst, l.sel.figure);
  const std::string measured = fmt_num(value) + " " + unit + " (" + where(*worst) + ")";
  if (value > l.max_us)
    return {p.label, VerdictStatus::fail, measured, limit, "the highest of " + std::to_string(p.ok.size()) + " records exceeds the limit"};
  return {p.label, VerdictStatus::pass, measured, limit, "the highest of " + std::to_string(p.ok.size()) + " records is within it"};
}

// Dip of one record: from a timeline of rates when there is one, else slowest 1% of iterations.
std::optional<double> dip_of(const Record& r) {
  for (const auto& [key, v] : r.extra.items()) {
    if (key.rfind("timeline", 0) != 0 || !v.is_array() || v.size() < 2) continue;
    std::vector<double> rates;
    for (const auto& x : v)
      if (x.is_number()) rates.push_back(x.get<double>());
    if (rates.size() < 2) continue;
    const double med = median(rates);
    if (med > 0) return std::max(0.0, 1 - *std::min_element(rates.begin(), rates.end()) / med);
  }
  if (r.time_us.samples >= 2 && r.time_us.p99 > 0) return std::max(0.0, 1 - r.time_us.p50 / r.time_us.p99);
  return std::nullopt;
}

Verdict stability(const Report& report, const StabilityPromise& s, std::size_t i) {
  const std::string limit = "dip <= " + fmt_num(s.max_dip_pct) + " %";
  auto p = pick(report, s.sel, true, "stability[" + std::to_string(i) + "]", limit);
  if (p.verdict) return *p.verdict;
  const Record* worst = nullptr;
  double dip = 0;
  for (const auto* r : p.ok)
    if (const auto d = dip_of(*r); d && (!worst || *d > dip)) worst = r, dip = *d;
  if (!worst) return {p.label, VerdictStatus::skip, "-", limit, "no record has repetitions (a timeline or 2+ timed iterations)"};
  const std::string measured = fmt_num(dip * 100) + " % (" + where(*worst) + ")";
  if (dip * 100 > s.max_dip_pct)
    return {p.label, VerdictStatus::fail, measured, limit, "the largest dip of " + std::to_string(p.ok.size()) + " records exceeds the limit"};
  return {p.label, VerdictStatus::pass, measured, limit, "the largest dip of " + std::to_string(p.ok.size()) + " records is within it"};
}

Verdict spread(const Report& report, const SpreadPromise& s, std::size_t i) {
  const std::string limit = "every host within " + fmt_num(s.max_spread_pct) + " % of the median";
  auto p = pick(report, s.sel, true, "homogeneity.figures[" + std::to_string(i) + "]", limit);
  if (p.verdict) return *p.verdict;
  p.label += " " + s.sel.figure;
  std::map<std::string, std::vector<double>> by_host;
  for (const auto* r : p.ok) by_host[r->host].push_back(*figure_value(*r, s.sel.figure));
  if (by_host.size() < 2)
    return {p.label, VerdictStatus::skip, "-", limit, "needs figures from at least 2 hosts (the run has " + std::to_string(by_host.size()) + ")"};
  std::vector<double> values;
  for (const auto& [host, v] : by_host) values.push_back(median(v));
  const double mid = median(values);
  std::string far_host;
  double far = 0, far_value = 0;
  for (const auto& [host, v] : by_host) {
    const double dev = mid > 0 ? std::abs(median(v) - mid) / mid : 0;
    if (far_host.empty() || dev > far) far_host = host, far = dev, far_value = median(v);
  }
  const std::string unit = figure_unit(s.sel.figure);
  const std::string measured = fmt_num(far * 100) + " % (" + far_host + " at " + fmt_num(far_value) + " " + unit + ", median " + fmt_num(mid) + " " + unit + ")";
  std::string listing;
  for (const auto& [host, v] : by_host) listing += (listing.empty() ? "" : ", ") + host + " " + fmt_num(median(v));
  const std::string which = by_host.size() == 2 ? "the 2 hosts differ (" + listing + " " + unit + ")"
                                                : far_host + " differs most from the other " + std::to_string(by_host.size() - 1) + " hosts";
  if (far * 100 > s.max_spread_pct) return {p.label, VerdictStatus::fail, measured, limit, which};
  return {p.label, VerdictStatus::pass, measured, limit, "all " + std::to_string(by_host.size()) + " hosts are within it"};
}

}  // namespace

std::vector<Verdict> evaluate(const Report& report, const Spec& spec) {
  const auto nodes = node_facts(report.topology);
  const std::string match = spec.nic ? spec.nic->match : std::string{};
  std::vector<Verdict> out;
  if (spec.nic) out.push_back(check_nic(nodes, *spec.nic));
  if (spec.pcie_gpu) out.push_back(check_pcie_gpu(nodes, *spec.pcie_gpu));
  if (spec.pcie_nic) out.push_back(check_pcie_nic(nodes, *spec.pcie_nic, match));
  if (spec.worst_path) out.push_back(check_locality(nodes, *spec.worst_path, match));
  for (std::size_t i = 0; i < spec.bandwidth.size(); ++i) out.push_back(bandwidth(report, spec.bandwidth[i], i));
  for (std::size_t i = 0; i < spec.latency.size(); ++i) out.push_back(latency(report, spec.latency[i], i));
  for (std::size_t i = 0; i < spec.stability.size(); ++i) out.push_back(stability(report, spec.stability[i], i));
  if (spec.homogeneity) {
    if (spec.homogeneity->topology) out.push_back(check_same_topology(nodes, match));
    for (std::size_t i = 0; i < spec.homogeneity->figures.size(); ++i)
      out.push_back(spread(report, spec.homogeneity->figures[i], i));
  }
  return out;
}

int verdict_exit_code(const std::vector<Verdict>& verdicts) {
  return std::any_of(verdicts.begin(), verdicts.end(), [](const Verdict& v) { return v.status == VerdictStatus::fail; }) ? 1 : 0;
}

}  // namespace gpunet::report
