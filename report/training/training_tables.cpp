#include "report/training/training_tables.hpp"

#include <cmath>
#include <cstdio>

#include "report/analysis/ceilings.hpp"
#include "report/text/text_format.hpp"
#include "report/training/training_params.hpp"

namespace gpunet::report::training {

std::string percent_text(double fraction) { return format_fixed(fraction * 100, 1) + " %"; }
std::string signed_percent_text(double fraction) { return (fraction >= 0 ? "+" : "") + percent_text(fraction); }

std::string seconds_text(double s) {
  char buf[32];
  if (s == 0) return "0 s";
  if (std::abs(s) < 1e-3) {
    std::snprintf(buf, sizeof buf, "%.3g us", s * 1e6);
  } else if (std::abs(s) < 1) {
    std::snprintf(buf, sizeof buf, "%.3g ms", s * 1e3);
  } else if (std::abs(s) < 1000) {
    std::snprintf(buf, sizeof buf, "%.3g s", s);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f s", s);
  }
  return buf;
}

std::string gigabytes_text(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, bytes < 1e12 ? "%.3g GB" : "%.0f GB", bytes / 1e9);
  return buf;
}

std::string gbits_text(double GBps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g Gb/s", GBps * 8);
  return buf;
}

namespace {

std::string exceeds_text(const std::optional<int>& at) {
  return at ? std::to_string(*at) + " nodes" : "not up to 4096 nodes";
}

std::string params_text(double params) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g B", params / 1e9);
  return buf;
}

template <typename Row, typename Nodes>
const Row* find_row(const std::vector<Row>& rows, int nodes, Nodes nodes_of) {
  for (const auto& r : rows)
    if (nodes_of(r) == nodes) return &r;
  return nullptr;
}

const WorkloadAnswer* find_workload(const TrainingResult& s, const std::string& name) {
  for (const auto& w : s.workloads)
    if (w.name == name) return &w;
  return nullptr;
}

double step_compute_s(const TrainingParams& p) { return p.step_compute_s.value_or(kDefaultStepComputeS); }

std::string headline(const TrainingResult& s) {
  const TrainingParams& in = s.inputs;
  const ChosenModel& m = s.model;
  const std::string& focus = s.link_speeds_workload;
  const WorkloadAnswer* w = find_workload(s, focus);
  const int measured = m.measured_nodes;
  const int n = measured >= 2 ? measured : 4;  // one node measured: answer for 4, as a projection
  const StepRow* row = w ? find_row(w->rows, n, [](const StepRow& r) { return r.step.nodes; }) : nullptr;
  if (!row) return "";
  std::string out = measured >= 2 ? "" : "This run measured within one node only, so the answers below apply that path to "
                                         "more nodes (projections, not a network measurement). ";
  out += "With " + (focus == "your model" ? "your model's " + params_text(w->params) : params_text(w->params)) +
         " parameters (" + gigabytes_text(w->grad_bytes) + " of gradients) at " + seconds_text(step_compute_s(in)) +
         " of compute per step" + (!in.step_compute_s ? " (the default: give --step-compute-s)" : "") +
         (in.sharding == Sharding::full ? ", fully sharded collectives over " : ", a ring all-reduce over ") +
         std::to_string(n) + " nodes moves " + gigabytes_text(row->step.bytes_per_node) + " per node per step: this network (" +
         gbits_text(bandwidth_GBps(m.model)) + " fitted) keeps the GPUs waiting " +
         percent_text(row->step.wait_no_overlap) + " of each step with no overlap, " + percent_text(row->step.wait_model) +
         " with the fixed overlap model. Communication exceeds compute from " + exceeds_text(w->comm_exceeds_compute_at) + ".";
  for (const auto& l : s.link_speeds) {
    if (l.rate_Gbps != 100) continue;
    const Projection& p = l.at_run_efficiency ? *l.at_run_efficiency : l.at_capped_efficiency;
    if (const StepEstimate* r = find_row(p.rows, n, [](const StepEstimate& e) { return e.nodes; }))
      out += " Estimate for 100GbE at " + percent_text(p.efficiency) + " of its ceiling: " + percent_text(r->wait_no_overlap) +
             " with no overlap.";
  }
  return out;
}

std::vector<std::string> notes(const TrainingResult& s) {
  const TrainingParams& in = s.inputs;
  const ChosenModel& m = s.model;
  std::vector<std::string> out;
  out.push_back("Model: " + m.source + ", " + m.path + ", " + m.regime + " regime, ring all-reduce " +
                "T(n,S) = 2(n-1)·alpha + 2(n-1)/n·S·beta with alpha = " + seconds_text(m.model.alpha_s) + ", beta = 1/(" +
                gbits_text(bandwidth_GBps(m.model)) + ")" +
                (m.efficiency ? ", " + percent_text(*m.efficiency) + " of its ceiling" : "") +
                (m.network.empty() ? "" : "; its traffic crossed " + m.network) + ".");
  if (!m.passed_over.empty()) out.push_back("Network: " + m.passed_over + ".");
  if (!m.note.empty()) out.push_back("Note: " + m.note + ".");
  if (in.sharding == Sharding::full)
    out.push_back("Sharding full (ZeRO-3 / FSDP): per step the parameters are all-gathered twice and the gradients "
                  "reduce-scattered, 3(n-1)/n·G per node (1.5× an all-reduce); the forward all-gather hides behind "
                  "the forward pass, the backward collectives behind the backward pass.");
  if (m.fallback)
    out.push_back(std::string(!m.passed_over.empty() ? "From the pair figures" : "No all-reduce curve in this run") +
                  ": alpha = half the TCP round trip (p50), beta = 1 / TCP goodput (median of pairs).");
  out.push_back("Step compute " + seconds_text(step_compute_s(in)) +
                (!in.step_compute_s ? " (default; measure one step on one node and give --step-compute-s)" : "") +
                "; gradients " + format_figure(in.grad_bytes_per_param) + " B per parameter in buckets of " +
                format_bytes(static_cast<int64_t>(in.bucket_bytes)) +
                "; fixed overlap model: step = compute + max(0, comm - f·compute), f = " + format_fixed(kOverlappableFraction, 3) +
                " (the backward pass), stated before measuring.");
  for (const auto& st : s.measured_steps)
    out.push_back("The train suite measured a step (" + st.variant + ", " + std::to_string(st.nodes) + " nodes) at " +
                  seconds_text(st.measured_s) + " against the model's " + seconds_text(st.model_s) + ": " +
                  signed_percent_text(st.measured_s / st.model_s - 1) +
                  (st.within_bounds ? ", between the perfect-overlap and no-overlap steps"
                                    : ", outside the perfect-overlap and no-overlap steps") + ".");
  const AlphaSensitivity& a = s.alpha_sensitivity;
  if (a.waits.size() == 3)
    out.push_back("Alpha of the link-speed estimates: " + seconds_text(a.alpha_s) + ", " + a.from + "; the " + a.workload +
                  " wait at " + a.link + " on " + std::to_string(a.nodes) + " nodes is " + percent_text(a.waits[1].wait_no_overlap) +
                  " with it, " + percent_text(a.waits[0].wait_no_overlap) + " at half and " +
                  percent_text(a.waits[2].wait_no_overlap) + " at twice (--alpha-us gives your own).");
  out.push_back("Node counts other than the measured one are model predictions; counts above " + std::to_string(kMaxFakeClusterNodes) +
                " or above the measured count are projections. Link speeds are estimates: alpha as stated, bandwidth = efficiency × "
                "the TCP ceiling of the link; this run's efficiency and the typical " + percent_text(kTypicalEfficiency) +
                " cap are both shown (a shaped fake link reaches ~100 % and flatters the projection).");
  return out;
}

TextTable workload_table(const WorkloadAnswer& w) {
  TextTable t{"Workload " + w.name + ": " + params_text(w.params) + " parameters, " + gigabytes_text(w.grad_bytes) + " of gradients, " +
                  std::to_string(w.buckets) + " buckets; communication exceeds compute from " + exceeds_text(w.comm_exceeds_compute_at),
              {"nodes", "kind", "per node", "comm/step", "step no overlap", "step perfect", "step model", "wait no overlap",
               "wait perfect", "wait model", "scaling eff."},
              {}};
  for (const auto& r : w.rows) {
    const StepEstimate& e = r.step;
    t.rows.push_back({std::to_string(e.nodes), r.kind, gigabytes_text(e.bytes_per_node), seconds_text(e.comm_s),
                      seconds_text(e.no_overlap_s), seconds_text(e.perfect_overlap_s), seconds_text(e.model_s),
                      percent_text(e.wait_no_overlap), percent_text(e.wait_perfect), percent_text(e.wait_model),
                      percent_text(e.scaling_efficiency)});
  }
  return t;
}

TextTable link_table(const TrainingResult& s) {
  TextTable t{"Estimates at other link speeds, workload " + s.link_speeds_workload + ": GPU waiting (fixed model)",
              {"link", "efficiency", "bandwidth"}, {}};
  if (!s.link_speeds.empty())
    for (const auto& r : s.link_speeds.front().at_capped_efficiency.rows) t.headers.push_back(std::to_string(r.nodes) + " nodes");
  t.headers.push_back("comm > compute from");
  for (const auto& l : s.link_speeds) {
    auto add = [&](const Projection& p, const char* which) {
      std::vector<std::string> row{l.name, percent_text(p.efficiency) + which, gbits_text(p.bandwidth_GBps)};
      for (const auto& r : p.rows) row.push_back(percent_text(r.wait_model));
      row.push_back(exceeds_text(p.comm_exceeds_compute_at));
      t.rows.push_back(row);
    };
    if (l.at_run_efficiency) add(*l.at_run_efficiency, " (this run)");
    // The cap changes nothing when this run is already below it: one row.
    if (!l.at_run_efficiency || l.at_run_efficiency->efficiency > l.at_capped_efficiency.efficiency)
      add(l.at_capped_efficiency, " (capped)");
  }
  return t;
}

TextTable fits_table(const TrainingResult& s) {
  TextTable t{"Fitted alpha-beta models (least squares on relative residuals)",
              {"source", "path", "nodes", "ranks", "regime", "sizes", "alpha", "bandwidth", "R²", "max |res|", "median |res|"}, {}};
  for (const auto& c : s.fits)
    for (const auto& r : c.regimes)
      t.rows.push_back({c.source, c.path, std::to_string(c.nodes), std::to_string(c.ranks),
                        r.regime + " (" + regime_algorithm(r.regime) + ")",
                        format_bytes(static_cast<int64_t>(r.min_bytes)) + " - " + format_bytes(static_cast<int64_t>(r.max_bytes)),
                        seconds_text(r.model.alpha_s), gbits_text(bandwidth_GBps(r.model)),
                        format_fixed(r.quality.r2, 4), percent_text(r.quality.max_abs_relative),
                        percent_text(r.quality.median_abs_relative)});
  return t;
}

TextTable data_table(const TrainingResult& s) {
  TextTable t{"Moving " + gigabytes_text(s.inputs.dataset_bytes.value_or(kDefaultDatasetBytes)) +
                  (!s.inputs.dataset_bytes ? " (default; give --dataset-size)" : ""),
              {"network", "bandwidth", "time"}, {}};
  for (const auto& d : s.data_movement)
    t.rows.push_back({d.network + (d.estimate ? " (estimate)" : ""), gbits_text(d.bandwidth_GBps), format_duration(d.seconds)});
  return t;
}

TextTable latency_table(const TrainingResult& s) {
  TextTable t{"Interactive latency: p99 round trip against " +
                  format_figure(s.inputs.latency_threshold_us.value_or(kDefaultLatencyThresholdUs)) + " us",
              {"pair", "p99 round trip", "verdict"}, {}};
  for (const auto& l : s.latency)
    t.rows.push_back({l.pair, format_fixed(l.p99_rtt_us, 1) + " us", l.within_threshold ? "within" : "over"});
  return t;
}

}  // namespace

SectionText section_text(const TrainingResult& s) {
  SectionText out;
  out.present = true;
  if (!s.available) {
    out.headline = "Not answered: " + s.reason + ".";
    if (!s.latency.empty()) out.tables.push_back(latency_table(s));
    return out;
  }
  out.headline = headline(s);
  out.notes = notes(s);
  for (const auto& w : s.workloads) out.tables.push_back(workload_table(w));
  out.tables.push_back(link_table(s));
  out.tables.push_back(fits_table(s));
  out.tables.push_back(data_table(s));
  if (!s.latency.empty()) out.tables.push_back(latency_table(s));
  return out;
}

}  // namespace gpunet::report::training
