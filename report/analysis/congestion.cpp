#include "report/analysis/congestion.hpp"

#include <cmath>

#include "report/model/json_access.hpp"

namespace gpunet::report {

const std::vector<CongestionMeasure>& congestion_measures() {
  static const std::vector<CongestionMeasure> kMeasures{
      {"latency_p50", "us", Better::lower, "latency p50"},
      {"latency_p99", "us", Better::lower, "latency p99"},
      {"bandwidth", "Gb/s", Better::higher, "bandwidth"},
  };
  return kMeasures;
}

const CongestionMeasure* congestion_measure(const std::string& key) {
  for (const auto& m : congestion_measures())
    if (key == m.key) return &m;
  return nullptr;
}

std::string congestion_metric(const std::string& measure) { return "congestion.cif_" + measure; }

std::optional<double> congestion_impact(double isolated, double congested, Better better) {
  const bool usable = std::isfinite(isolated) && std::isfinite(congested) && isolated > 0 && congested > 0;
  if (!usable) return std::nullopt;
  return better == Better::lower ? congested / isolated : isolated / congested;
}

std::optional<CongestionOverall> congestion_overall(const std::vector<double>& cifs) {
  if (cifs.empty()) return std::nullopt;
  CongestionOverall o;
  double sum = 0;
  for (size_t i = 0; i < cifs.size(); ++i) {
    sum += cifs[i];
    if (i == 0 || cifs[i] > o.worst) {
      o.worst = cifs[i];
      o.worst_index = i;
    }
  }
  o.mean = sum / static_cast<double>(cifs.size());
  return o;
}

std::vector<CongestionFigure> congestion_figures(const Report& rep) {
  std::vector<CongestionFigure> out;
  for (const auto& r : rep.results) {
    if (record_kind(r) != RecordKind::tcp_congestion || r.status == Status::skipped) continue;
    CongestionFigure c;
    c.record = &r;
    c.measure = r.variant;
    c.overall = jsonx::string(r.extra, "victim").value_or("") == "all victims";
    c.victim = jsonx::string(r.extra, "victim").value_or(r.host);
    c.isolated = jsonx::number(r.extra, "isolated").value_or(0);
    c.congested = jsonx::number(r.extra, "congested").value_or(0);
    c.unit = jsonx::string(r.extra, "unit").value_or("");
    if (r.status == Status::passed && r.figure) c.cif = r.figure->value;
    c.worst = jsonx::number(r.extra, "worst").value_or(0);
    c.worst_victim = jsonx::string(r.extra, "worst_victim").value_or("");
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace gpunet::report
