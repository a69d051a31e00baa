// Congestion impact (GPCNeT's congestion impact factor, CIF) as the tcp suite's `congestion` test
// records it, and as the report and the spec read it back. Pure.
//
// A victim pair is measured alone ("isolated") and while other nodes congest the network
// ("congested"). Per victim and measure the CIF is congested / isolated for a time (latency p50, p99)
// and isolated / congested for a rate (bandwidth), so a CIF above 1 is always worse and 1 is no
// impact. Each CIF record (metric congestion.cif_<measure>, unit "ratio", better lower) keeps both
// raw figures in extra.isolated and extra.congested (extra.unit), so the CIF can be recomputed from
// the record alone; the overall record of a measure (subject: the cluster) carries the mean over the
// victims as its value and the worst victim in extra.worst / extra.worst_victim.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/model/record.hpp"

namespace gpunet::report {

inline constexpr const char* kCongestionUnit = "ratio";

struct CongestionMeasure {
  const char* key;   // "latency_p50", "latency_p99", "bandwidth"
  const char* unit;  // of the raw figures: "us", "Gb/s"
  Better better;     // of the raw figures
  const char* label; // "latency p50"
};
// The three measures, in table order.
const std::vector<CongestionMeasure>& congestion_measures();
const CongestionMeasure* congestion_measure(const std::string& key);

// "congestion.cif_latency_p99"
std::string congestion_metric(const std::string& measure);

// The CIF of one measure: congested / isolated when lower is better, isolated / congested when higher
// is; none when a figure is not positive and finite.
std::optional<double> congestion_impact(double isolated, double congested, Better better);

// One CIF record read back: a victim's (pair subject) or the overall one (cluster subject).
struct CongestionFigure {
  const Record* record = nullptr;
  std::string measure;      // "latency_p99"
  bool overall = false;
  std::string victim;       // "a -> b"; "all victims" for the overall record
  double isolated = 0, congested = 0;  // the raw figures (the overall record: their means)
  std::string unit;         // of the raw figures
  std::optional<double> cif;
  double worst = 0;         // overall: the worst victim's CIF
  std::string worst_victim; // overall
};
// Every congestion record of the report (passed or not), in report order.
std::vector<CongestionFigure> congestion_figures(const Report& rep);

// The overall figures of one measure from its victims' CIFs: the mean and the worst (highest).
struct CongestionOverall {
  double mean = 0;
  double worst = 0;
  size_t worst_index = 0;  // into the CIFs given
};
std::optional<CongestionOverall> congestion_overall(const std::vector<double>& cifs);

}  // namespace gpunet::report
