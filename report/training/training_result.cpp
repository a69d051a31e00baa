#include "report/training/training_result.hpp"

#include "report/model/json_access.hpp"

namespace gpunet::report::training {

using gpunet::json;

namespace {

json optional_int(const std::optional<int>& v) { return v ? json(*v) : json(nullptr); }

json regime_json(const RegimeFit& f) {
  json res = json::array();
  for (const auto& r : f.residuals)
    res.push_back({{"n", r.n}, {"bytes", r.bytes}, {"measured_s", r.measured_s}, {"predicted_s", r.predicted_s},
                   {"relative", r.relative}});
  return {{"regime", f.regime},
          {"algorithm", regime_algorithm(f.regime)},
          {"min_bytes", f.min_bytes},
          {"max_bytes", f.max_bytes},
          {"alpha_s", f.model.alpha_s},
          {"beta_s_per_byte", f.model.beta_s_per_byte},
          {"bandwidth_GBps", bandwidth_GBps(f.model)},
          {"r2", f.quality.r2},
          {"max_abs_relative_residual", f.quality.max_abs_relative},
          {"median_abs_relative_residual", f.quality.median_abs_relative},
          {"residuals", res}};
}

json step_json(const StepRow& r) {
  const StepEstimate& e = r.step;
  return {{"nodes", e.nodes},
          {"kind", r.kind},
          {"bytes_per_node", e.bytes_per_node},
          {"comm_s", e.comm_s},
          {"step_no_overlap_s", e.no_overlap_s},
          {"step_perfect_overlap_s", e.perfect_overlap_s},
          {"step_model_s", e.model_s},
          {"wait_no_overlap", e.wait_no_overlap},
          {"wait_perfect_overlap", e.wait_perfect},
          {"wait_model", e.wait_model},
          {"scaling_efficiency", e.scaling_efficiency}};
}

json projection_json(const Projection& p) {
  json rows = json::array();
  for (const auto& e : p.rows)
    rows.push_back({{"nodes", e.nodes}, {"comm_s", e.comm_s}, {"wait_no_overlap", e.wait_no_overlap},
                    {"wait_model", e.wait_model}, {"scaling_efficiency", e.scaling_efficiency}});
  return {{"efficiency", p.efficiency},
          {"bandwidth_GBps", p.bandwidth_GBps},
          {"comm_exceeds_compute_at", optional_int(p.comm_exceeds_compute_at)},
          {"rows", rows}};
}

json model_json(const ChosenModel& c) {
  json m = {{"path", c.path},
            {"source", c.source},
            {"regime", c.regime},
            {"fallback", c.fallback},
            {"measured_nodes", c.measured_nodes},
            {"alpha_s", c.model.alpha_s},
            {"beta_s_per_byte", c.model.beta_s_per_byte},
            {"bandwidth_GBps", bandwidth_GBps(c.model)}};
  if (c.efficiency) m["efficiency"] = *c.efficiency;
  if (!c.network.empty()) m["network"] = c.network;
  if (!c.passed_over.empty()) m["passed_over"] = c.passed_over;
  if (!c.note.empty()) m["note"] = c.note;
  return m;
}

// Reading back (report/model/json_access.hpp): a field of the wrong type or missing keeps its default.
double num(const json& j, const char* k) { return jsonx::number(j, k).value_or(0.0); }
// A number in int range, truncated (a count written as 4.0 reads as 4); else `fallback`.
int integer(const json& j, const char* k, int fallback = 0) {
  const auto v = jsonx::number(j, k);
  return v && *v >= -2e9 && *v <= 2e9 ? static_cast<int>(*v) : fallback;
}
std::optional<int> optional_integer(const json& j, const char* k) {
  return jsonx::number(j, k) ? std::optional<int>(integer(j, k)) : std::nullopt;
}
std::string str(const json& j, const char* k) { return jsonx::string(j, k).value_or(""); }
bool flag(const json& j, const char* k) { return jsonx::boolean(j, k).value_or(false); }
const json& object(const json& j, const char* k) { return jsonx::section(j, k); }
// The objects of an array field, none when it is not an array.
std::vector<const json*> objects(const json& j, const char* k) {
  std::vector<const json*> out;
  if (const json* a = jsonx::array_at(j, k))
    for (const auto& e : *a)
      if (e.is_object()) out.push_back(&e);
  return out;
}

StepEstimate step_of(const json& r) {
  StepEstimate e;
  e.nodes = integer(r, "nodes");
  e.bytes_per_node = num(r, "bytes_per_node");
  e.comm_s = num(r, "comm_s");
  e.no_overlap_s = num(r, "step_no_overlap_s");
  e.perfect_overlap_s = num(r, "step_perfect_overlap_s");
  e.model_s = num(r, "step_model_s");
  e.wait_no_overlap = num(r, "wait_no_overlap");
  e.wait_perfect = num(r, "wait_perfect_overlap");
  e.wait_model = num(r, "wait_model");
  e.scaling_efficiency = num(r, "scaling_efficiency");
  return e;
}

Projection projection_of(const json& p) {
  Projection out{num(p, "efficiency"), num(p, "bandwidth_GBps"), optional_integer(p, "comm_exceeds_compute_at"), {}};
  for (const json* r : objects(p, "rows")) out.rows.push_back(step_of(*r));
  return out;
}

RegimeFit regime_of(const json& r) {
  RegimeFit f;
  f.regime = str(r, "regime");
  f.min_bytes = num(r, "min_bytes");
  f.max_bytes = num(r, "max_bytes");
  f.model = {num(r, "alpha_s"), num(r, "beta_s_per_byte")};
  f.quality = {num(r, "r2"), num(r, "max_abs_relative_residual"), num(r, "median_abs_relative_residual")};
  for (const json* x : objects(r, "residuals"))
    f.residuals.push_back({integer(*x, "n"), num(*x, "bytes"), num(*x, "measured_s"), num(*x, "predicted_s"), num(*x, "relative")});
  return f;
}

}  // namespace

json params_json(const TrainingParams& p) {
  json j = {{"grad_bytes_per_param", p.grad_bytes_per_param},
            {"bucket_bytes", p.bucket_bytes},
            {"step_compute_s", p.step_compute_s.value_or(kDefaultStepComputeS)},
            {"step_compute_is_default", !p.step_compute_s.has_value()},
            {"dataset_bytes", p.dataset_bytes.value_or(kDefaultDatasetBytes)},
            {"dataset_is_default", !p.dataset_bytes.has_value()},
            {"latency_threshold_us", p.latency_threshold_us.value_or(kDefaultLatencyThresholdUs)},
            {"overlappable_fraction", kOverlappableFraction},
            {"sharding", to_string(p.sharding)},
            {"typical_efficiency", kTypicalEfficiency}};
  if (p.model_params) j["model_params"] = *p.model_params;
  if (p.alpha_us) j["alpha_us"] = *p.alpha_us;
  return j;
}

TrainingParams params_from_json(const json& j) {
  using jsonx::boolean, jsonx::number, jsonx::string;
  TrainingParams p;
  p.model_params = number(j, "model_params");
  p.grad_bytes_per_param = number(j, "grad_bytes_per_param").value_or(p.grad_bytes_per_param);
  p.bucket_bytes = number(j, "bucket_bytes").value_or(p.bucket_bytes);
  p.sharding = sharding_from_string(string(j, "sharding").value_or("none")).value_or(Sharding::none);
  if (!boolean(j, "step_compute_is_default").value_or(true))
    p.step_compute_s = number(j, "step_compute_s").value_or(kDefaultStepComputeS);
  if (!boolean(j, "dataset_is_default").value_or(true))
    p.dataset_bytes = number(j, "dataset_bytes").value_or(kDefaultDatasetBytes);
  p.alpha_us = number(j, "alpha_us");
  if (j.is_object() && j.contains("latency_threshold_us"))
    p.latency_threshold_us = number(j, "latency_threshold_us").value_or(kDefaultLatencyThresholdUs);
  return p;
}

std::string regime_algorithm(const std::string& regime) {
  return regime == "small messages" ? "latency-bound algorithm (Open MPI's tuned component uses recursive doubling here), "
                                      "fitted in the ring's form"
                                    : "ring";
}

void to_json(json& j, const TrainingResult& t) {
  json fits = json::array();
  for (const auto& c : t.fits) {
    json regimes = json::array();
    for (const auto& f : c.regimes) regimes.push_back(regime_json(f));
    fits.push_back({{"source", c.source}, {"path", c.path}, {"nodes", c.nodes}, {"ranks", c.ranks}, {"points", c.points},
                    {"regimes", regimes}});
  }
  j = {{"inputs", params_json(t.inputs)}, {"fits", fits}, {"latency", json::array()}, {"available", t.available}};
  for (const auto& l : t.latency)
    j["latency"].push_back({{"pair", l.pair}, {"p99_rtt_us", l.p99_rtt_us}, {"within_threshold", l.within_threshold}});
  for (const auto& st : t.measured_steps)
    j["measured_steps"].push_back({{"variant", st.variant}, {"nodes", st.nodes}, {"measured_s", st.measured_s},
                                   {"model_s", st.model_s}, {"error", st.measured_s / st.model_s - 1},
                                   {"within_bounds", st.within_bounds}});
  if (!t.available) {
    j["reason"] = t.reason;
    return;
  }
  j["model"] = model_json(t.model);
  json& wl = j["workloads"] = json::array();
  for (const auto& w : t.workloads) {
    json rows = json::array();
    for (const auto& r : w.rows) rows.push_back(step_json(r));
    wl.push_back({{"name", w.name},
                  {"params", w.params},
                  {"grad_bytes", w.grad_bytes},
                  {"buckets", w.buckets},
                  {"comm_exceeds_compute_at", optional_int(w.comm_exceeds_compute_at)},
                  {"rows", rows}});
  }
  j["link_speeds_workload"] = t.link_speeds_workload;
  json& ls = j["link_speeds"] = json::array();
  for (const auto& l : t.link_speeds) {
    json entry = {{"name", l.name}, {"rate_Gbps", l.rate_Gbps}, {"ceiling_GBps", l.ceiling_GBps}};
    if (l.at_run_efficiency) entry["at_run_efficiency"] = projection_json(*l.at_run_efficiency);
    entry["at_capped_efficiency"] = projection_json(l.at_capped_efficiency);
    ls.push_back(entry);
  }
  const AlphaSensitivity& a = t.alpha_sensitivity;
  json waits = json::array();
  for (const auto& w : a.waits) waits.push_back({{"alpha_s", w.alpha_s}, {"wait_no_overlap", w.wait_no_overlap}});
  j["alpha_sensitivity"] = {{"alpha_s", a.alpha_s}, {"from", a.from}, {"workload", a.workload}, {"nodes", a.nodes},
                            {"link", a.link},       {"waits", waits}};
  json& dm = j["data_movement"] = json::array();
  for (const auto& d : t.data_movement)
    dm.push_back({{"network", d.network}, {"bandwidth_GBps", d.bandwidth_GBps}, {"seconds", d.seconds}, {"estimate", d.estimate}});
}

void from_json(const json& j, TrainingResult& t) {
  t = TrainingResult{};
  if (!j.is_object()) return;
  t.inputs = params_from_json(object(j, "inputs"));
  for (const json* c : objects(j, "fits")) {
    CurveFit& f = t.fits.emplace_back();
    f.source = str(*c, "source");
    f.path = str(*c, "path");
    f.nodes = integer(*c, "nodes");
    f.ranks = integer(*c, "ranks");
    f.points = integer(*c, "points");
    for (const json* r : objects(*c, "regimes")) f.regimes.push_back(regime_of(*r));
  }
  for (const json* l : objects(j, "latency"))
    t.latency.push_back({str(*l, "pair"), num(*l, "p99_rtt_us"), flag(*l, "within_threshold")});
  for (const json* s : objects(j, "measured_steps"))
    t.measured_steps.push_back({str(*s, "variant"), integer(*s, "nodes"), num(*s, "measured_s"), num(*s, "model_s"),
                                flag(*s, "within_bounds")});
  t.available = flag(j, "available");
  t.reason = str(j, "reason");
  if (!t.available) return;
  const json& m = object(j, "model");
  ChosenModel& c = t.model;
  c.path = str(m, "path");
  c.source = str(m, "source");
  c.regime = str(m, "regime");
  c.fallback = flag(m, "fallback");
  c.measured_nodes = integer(m, "measured_nodes", 2);
  c.model = {num(m, "alpha_s"), num(m, "beta_s_per_byte")};
  if (m.contains("efficiency") && m["efficiency"].is_number()) c.efficiency = num(m, "efficiency");
  c.network = str(m, "network");
  c.passed_over = str(m, "passed_over");
  c.note = str(m, "note");
  for (const json* w : objects(j, "workloads")) {
    WorkloadAnswer& a = t.workloads.emplace_back();
    a.name = str(*w, "name");
    a.params = num(*w, "params");
    a.grad_bytes = num(*w, "grad_bytes");
    a.buckets = integer(*w, "buckets");
    a.comm_exceeds_compute_at = optional_integer(*w, "comm_exceeds_compute_at");
    for (const json* r : objects(*w, "rows")) a.rows.push_back({step_of(*r), str(*r, "kind")});
  }
  t.link_speeds_workload = str(j, "link_speeds_workload");
  for (const json* l : objects(j, "link_speeds")) {
    LinkSpeed& s = t.link_speeds.emplace_back();
    s.name = str(*l, "name");
    s.rate_Gbps = num(*l, "rate_Gbps");
    s.ceiling_GBps = num(*l, "ceiling_GBps");
    if (l->contains("at_run_efficiency")) s.at_run_efficiency = projection_of(object(*l, "at_run_efficiency"));
    s.at_capped_efficiency = projection_of(object(*l, "at_capped_efficiency"));
  }
  const json& a = object(j, "alpha_sensitivity");
  t.alpha_sensitivity = {num(a, "alpha_s"), str(a, "from"), str(a, "workload"), str(a, "link"), integer(a, "nodes"), {}};
  for (const json* w : objects(a, "waits")) t.alpha_sensitivity.waits.push_back({num(*w, "alpha_s"), num(*w, "wait_no_overlap")});
  for (const json* d : objects(j, "data_movement"))
    t.data_movement.push_back({str(*d, "network"), num(*d, "bandwidth_GBps"), num(*d, "seconds"), flag(*d, "estimate")});
}

std::optional<TrainingResult> training_result_of(const Report& rep) {
  const json* t = jsonx::object_at(rep.extra, "training");
  if (!t) return std::nullopt;
  return t->get<TrainingResult>();
}

}  // namespace gpunet::report::training
