#include "report/training/training_tables.hpp"

#include <cmath>
#include <cstdio>

#include "report/analysis/ceilings.hpp"
#include "report/text/text_format.hpp"
#include "report/training/training_section.hpp"

namespace gpunet::report::training {

using nlohmann::json;

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

double num(const json& j, const char* key) { return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0; }
std::string str(const json& j, const char* key) { return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : ""; }

std::string exceeds_text(const json& j) {
  const auto& v = j.contains("comm_exceeds_compute_at") ? j["comm_exceeds_compute_at"] : json(nullptr);
  return v.is_number() ? std::to_string(v.get<int>()) + " nodes" : "not up to 4096 nodes";
}

std::string params_text(double params) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g B", params / 1e9);
  return buf;
}

const json* find_row(const json& rows, int nodes) {
  for (const auto& r : rows)
    if (r.value("nodes", 0) == nodes) return &r;
  return nullptr;
}

const json* find_workload(const json& s, const std::string& name) {
  for (const auto& w : s["workloads"])
    if (str(w, "name") == name) return &w;
  return nullptr;
}

std::string headline(const json& s) {
  const json& in = s["inputs"];
  const json& m = s["model"];
  const std::string focus = str(s, "link_speeds_workload");
  const json* w = find_workload(s, focus);
  const int measured = m.value("measured_nodes", 2);
  const int n = measured >= 2 ? measured : 4;  // one node measured: answer for 4, as a projection
  const json* row = w ? find_row((*w)["rows"], n) : nullptr;
  if (!row) return "";
  std::string out = measured >= 2 ? "" : "This run measured within one node only, so the answers below apply that path to "
                                         "more nodes (projections, not a network measurement). ";
  out += "With " + (focus == "your model" ? "your model's " + params_text(num(*w, "params")) : params_text(num(*w, "params"))) +
                    " parameters (" + gigabytes_text(num(*w, "grad_bytes")) + " of gradients) at " +
                    seconds_text(num(in, "step_compute_s")) + " of compute per step" +
                    (in.value("step_compute_is_default", true) ? " (the default: give --step-compute-s)" : "") +
                    (in.value("sharding", std::string("none")) == "full" ? ", fully sharded collectives over "
                                                                          : ", a ring all-reduce over ") +
                    std::to_string(n) + " nodes moves " +
                    gigabytes_text(num(*row, "bytes_per_node")) + " per node per step: this network (" +
                    gbits_text(num(m, "bandwidth_GBps")) + " fitted) keeps the GPUs waiting " +
                    percent_text(num(*row, "wait_no_overlap")) + " of each step with no overlap, " +
                    percent_text(num(*row, "wait_model")) + " with the fixed overlap model. Communication exceeds compute from " +
                    exceeds_text(*w) + ".";
  for (const auto& l : s["link_speeds"]) {
    if (num(l, "rate_Gbps") != 100) continue;
    const json& p = l.contains("at_run_efficiency") ? l["at_run_efficiency"] : l["at_capped_efficiency"];
    if (const json* r = find_row(p["rows"], n))
      out += " Estimate for 100GbE at " + percent_text(num(p, "efficiency")) + " of its ceiling: " +
             percent_text(num(*r, "wait_no_overlap")) + " with no overlap.";
  }
  return out;
}

std::vector<std::string> notes(const json& s) {
  const json& in = s["inputs"];
  const json& m = s["model"];
  std::vector<std::string> out;
  out.push_back("Model: " + str(m, "source") + ", " + str(m, "path") + ", " + str(m, "regime") + " regime, ring all-reduce " +
                "T(n,S) = 2(n-1)·alpha + 2(n-1)/n·S·beta with alpha = " + seconds_text(num(m, "alpha_s")) +
                ", beta = 1/(" + gbits_text(num(m, "bandwidth_GBps")) + ")" +
                (m.contains("efficiency") ? ", " + percent_text(num(m, "efficiency")) + " of its ceiling" : "") +
                (m.contains("network") ? "; its traffic crossed " + str(m, "network") : "") + ".");
  if (m.contains("passed_over")) out.push_back("Network: " + str(m, "passed_over") + ".");
  if (m.contains("note")) out.push_back("Note: " + str(m, "note") + ".");
  if (in.value("sharding", std::string("none")) == "full")
    out.push_back("Sharding full (ZeRO-3 / FSDP): per step the parameters are all-gathered twice and the gradients "
                  "reduce-scattered, 3(n-1)/n·G per node (1.5× an all-reduce); the forward all-gather hides behind "
                  "the forward pass, the backward collectives behind the backward pass.");
  if (m.value("fallback", false))
    out.push_back(std::string(m.contains("passed_over") ? "From the pair figures" : "No all-reduce curve in this run") + ": alpha = half the TCP round trip (p50), beta = 1 / TCP goodput (median of pairs).");
  out.push_back("Step compute " + seconds_text(num(in, "step_compute_s")) +
                (in.value("step_compute_is_default", true) ? " (default; measure one step on one node and give --step-compute-s)" : "") +
                "; gradients " + format_figure(num(in, "grad_bytes_per_param")) + " B per parameter in buckets of " +
                format_bytes(static_cast<int64_t>(num(in, "bucket_bytes"))) +
                "; fixed overlap model: step = compute + max(0, comm - f·compute), f = " + format_fixed(num(in, "overlappable_fraction"), 3) +
                " (the backward pass), stated before measuring.");
  for (const auto& st : s.value("measured_steps", json::array()))
    out.push_back("The train suite measured a step (" + str(st, "variant") + ", " + std::to_string(st.value("nodes", 0)) +
                  " nodes) at " + seconds_text(num(st, "measured_s")) + " against the model's " +
                  seconds_text(num(st, "model_s")) + ": " + signed_percent_text(num(st, "error")) +
                  (st.value("within_bounds", false) ? ", between the perfect-overlap and no-overlap steps"
                                                    : ", outside the perfect-overlap and no-overlap steps") + ".");
  if (s.contains("alpha_sensitivity")) {
    const json& a = s["alpha_sensitivity"];
    const json& w = a["waits"];
    if (w.is_array() && w.size() == 3)
      out.push_back("Alpha of the link-speed estimates: " + seconds_text(num(a, "alpha_s")) + ", " + str(a, "from") +
                    "; the " + str(a, "workload") + " wait at " + str(a, "link") + " on " + std::to_string(a.value("nodes", 0)) +
                    " nodes is " + percent_text(num(w[1], "wait_no_overlap")) + " with it, " +
                    percent_text(num(w[0], "wait_no_overlap")) + " at half and " + percent_text(num(w[2], "wait_no_overlap")) +
                    " at twice (--alpha-us gives your own).");
  }
  out.push_back("Node counts other than the measured one are model predictions; counts above " + std::to_string(kMaxFakeClusterNodes) +
                " or above the measured count are projections. Link speeds are estimates: alpha as stated, bandwidth = efficiency × "
                "the TCP ceiling of the link; this run's efficiency and the typical " + percent_text(num(in, "typical_efficiency")) +
                " cap are both shown (a shaped fake link reaches ~100 % and flatters the projection).");
  return out;
}

TextTable workload_table(const json& w) {
  TextTable t{"Workload " + str(w, "name") + ": " + params_text(num(w, "params")) + " parameters, " +
                  gigabytes_text(num(w, "grad_bytes")) + " of gradients, " + std::to_string(w.value("buckets", 0)) +
                  " buckets; communication exceeds compute from " + exceeds_text(w),
              {"nodes", "kind", "per node", "comm/step", "step no overlap", "step perfect", "step model", "wait no overlap",
               "wait perfect", "wait model", "scaling eff."},
              {}};
  for (const auto& r : w["rows"])
    t.rows.push_back({std::to_string(r.value("nodes", 0)), str(r, "kind"), gigabytes_text(num(r, "bytes_per_node")),
                      seconds_text(num(r, "comm_s")), seconds_text(num(r, "step_no_overlap_s")),
                      seconds_text(num(r, "step_perfect_overlap_s")), seconds_text(num(r, "step_model_s")),
                      percent_text(num(r, "wait_no_overlap")), percent_text(num(r, "wait_perfect_overlap")),
                      percent_text(num(r, "wait_model")), percent_text(num(r, "scaling_efficiency"))});
  return t;
}

TextTable link_table(const json& s) {
  TextTable t{"Estimates at other link speeds, workload " + str(s, "link_speeds_workload") + ": GPU waiting (fixed model)",
              {"link", "efficiency", "bandwidth"}, {}};
  const json& first = s["link_speeds"].front()["at_capped_efficiency"]["rows"];
  for (const auto& r : first) t.headers.push_back(std::to_string(r.value("nodes", 0)) + " nodes");
  t.headers.push_back("comm > compute from");
  for (const auto& l : s["link_speeds"])
    for (const char* which : {"at_run_efficiency", "at_capped_efficiency"}) {
      if (!l.contains(which)) continue;
      // The cap changes nothing when this run is already below it: one row.
      if (std::string(which) == "at_capped_efficiency" && l.contains("at_run_efficiency") &&
          num(l["at_run_efficiency"], "efficiency") <= num(l[which], "efficiency"))
        continue;
      const json& p = l[which];
      std::vector<std::string> row{str(l, "name"), percent_text(num(p, "efficiency")) +
                                                       (std::string(which) == "at_run_efficiency" ? " (this run)" : " (capped)"),
                                   gbits_text(num(p, "bandwidth_GBps"))};
      for (const auto& r : p["rows"]) row.push_back(percent_text(num(r, "wait_model")));
      row.push_back(exceeds_text(p));
      t.rows.push_back(row);
    }
  return t;
}

TextTable fits_table(const json& s) {
  TextTable t{"Fitted alpha-beta models (least squares on relative residuals)",
              {"source", "path", "nodes", "ranks", "regime", "sizes", "alpha", "bandwidth", "R²", "max |res|", "median |res|"}, {}};
  for (const auto& c : s["fits"])
    for (const auto& r : c["regimes"])
      t.rows.push_back({str(c, "source"), str(c, "path"), std::to_string(c.value("nodes", 0)), std::to_string(c.value("ranks", 0)),
                        str(r, "regime") + " (" + str(r, "algorithm") + ")",
                        format_bytes(static_cast<int64_t>(num(r, "min_bytes"))) + " - " +
                            format_bytes(static_cast<int64_t>(num(r, "max_bytes"))),
                        seconds_text(num(r, "alpha_s")), gbits_text(num(r, "bandwidth_GBps")), format_fixed(num(r, "r2"), 4),
                        percent_text(num(r, "max_abs_relative_residual")), percent_text(num(r, "median_abs_relative_residual"))});
  return t;
}

TextTable data_table(const json& s) {
  TextTable t{"Moving " + gigabytes_text(num(s["inputs"], "dataset_bytes")) +
                  (s["inputs"].value("dataset_is_default", true) ? " (default; give --dataset-size)" : ""),
              {"network", "bandwidth", "time"}, {}};
  for (const auto& d : s["data_movement"])
    t.rows.push_back({str(d, "network") + (d.value("estimate", false) ? " (estimate)" : ""), gbits_text(num(d, "bandwidth_GBps")),
                      format_duration(num(d, "seconds"))});
  return t;
}

TextTable latency_table(const json& s) {
  TextTable t{"Interactive latency: p99 round trip against " + format_figure(num(s["inputs"], "latency_threshold_us")) + " us",
              {"pair", "p99 round trip", "verdict"}, {}};
  for (const auto& l : s["latency"])
    t.rows.push_back({str(l, "pair"), format_fixed(num(l, "p99_rtt_us"), 1) + " us",
                      l.value("within_threshold", false) ? "within" : "over"});
  return t;
}

}  // namespace

SectionText section_text(const json& s) {
  SectionText out;
  if (!s.is_object()) return out;
  out.present = true;
  if (!s.value("available", false)) {
    out.headline = "Not answered: " + str(s, "reason") + ".";
    if (!s["latency"].empty()) out.tables.push_back(latency_table(s));
    return out;
  }
  out.headline = headline(s);
  out.notes = notes(s);
  for (const auto& w : s["workloads"]) out.tables.push_back(workload_table(w));
  out.tables.push_back(link_table(s));
  out.tables.push_back(fits_table(s));
  out.tables.push_back(data_table(s));
  if (!s["latency"].empty()) out.tables.push_back(latency_table(s));
  return out;
}

}  // namespace gpunet::report::training
