#include "report/training/training_section.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "report/analysis/ceilings.hpp"
#include "report/training/training_inputs.hpp"

namespace gpunet::report::training {

namespace {

// The model every prediction uses: the large-message regime of the first curve between nodes (NCCL
// before MPI) that crossed the network the tcp suite measured, else the TCP pair fallback, else the
// first curve within a node.
struct Chosen {
  AlphaBeta model;
  std::string path, source, regime;
  int nodes = 0;
  int ranks = 0;  // of the fitted curve's largest point (0 for the fallback)
  std::optional<double> efficiency;
  bool fallback = false;
  std::string network;    // "eth0 on 4 hosts": what the chosen figures crossed ("" when unknown)
  std::string elsewhere;  // why a curve was passed over: it crossed another network
};

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& x : v) out += (out.empty() ? "" : ", ") + x;
  return out;
}

std::string network_text(const TrainingInputs& in, const std::string& suite, std::vector<std::string> interfaces = {}) {
  const auto it = in.crossed.find(suite);
  if (interfaces.empty() && it != in.crossed.end()) interfaces = it->second.interfaces;
  if (interfaces.empty()) return "";
  const int hosts = it == in.crossed.end() ? 0 : it->second.hosts;
  return joined(interfaces) + (hosts > 0 ? " on " + std::to_string(hosts) + " hosts" : "");
}

// A curve whose suite's traffic crossed none of the interfaces the tcp suite measured (MPI on the
// control network while the data network is under test): why it is not the network asked about.
std::optional<std::string> crossed_elsewhere(const Curve& c, const TrainingInputs& in) {
  if (!in.pair || in.pair->interfaces.empty()) return std::nullopt;
  const auto it = in.crossed.find(c.suite);
  if (it == in.crossed.end() || it->second.interfaces.empty()) return std::nullopt;
  for (const auto& i : it->second.interfaces)
    if (std::find(in.pair->interfaces.begin(), in.pair->interfaces.end(), i) != in.pair->interfaces.end())
      return std::nullopt;
  return "the " + c.source + " crossed " + joined(it->second.interfaces) + ", not " + joined(in.pair->interfaces) +
         ", the network the tcp suite measured; the model is fitted from " + joined(in.pair->interfaces) +
         "'s pair goodput and latency instead";
}

std::optional<Chosen> choose(const TrainingInputs& in, const std::vector<std::vector<RegimeFit>>& fits) {
  auto from_curve = [&](size_t i) {
    const RegimeFit& f = fits[i].back();
    return Chosen{f.model, in.curves[i].path, in.curves[i].source, f.regime, in.curves[i].nodes,
                  in.curves[i].ranks, in.curves[i].efficiency, false, network_text(in, in.curves[i].suite), ""};
  };
  std::string elsewhere;
  for (size_t i = 0; i < in.curves.size(); ++i) {
    if (fits[i].empty() || in.curves[i].nodes < 2) continue;
    if (const auto why = crossed_elsewhere(in.curves[i], in)) {
      if (elsewhere.empty()) elsewhere = *why;
      continue;
    }
    return from_curve(i);
  }
  if (in.pair)
    return Chosen{from_pair(in.pair->half_rtt_s, in.pair->goodput_Bps), "between nodes",
                  "tcp pair goodput and latency (" + in.pair->pairs + ")" +
                      (elsewhere.empty() ? ", no all-reduce curve" : ", not the all-reduce curve"),
                  "pair", 2, 0, in.pair->efficiency, true, network_text(in, "tcp", in.pair->interfaces), elsewhere};
  for (size_t i = 0; i < in.curves.size(); ++i)
    if (!fits[i].empty()) return from_curve(i);
  return std::nullopt;
}

std::vector<int> node_counts(int measured) {
  std::set<int> s(std::begin(kWhatIfNodes), std::end(kWhatIfNodes));
  if (measured >= 2) s.insert(measured);
  return {s.begin(), s.end()};
}

std::string row_kind(int n, int measured) {
  if (n == measured) return "measured node count";
  return n > kMaxFakeClusterNodes || n > measured ? "projection" : "model";
}

struct Workload {
  std::string name;
  double params;
};

std::vector<Workload> workloads(const TrainingParams& p) {
  std::vector<Workload> w;
  if (p.model_params) w.push_back({"your model", *p.model_params});
  for (const auto& preset : kPresets) w.push_back({preset.name, preset.params});
  return w;
}

WorkloadAnswer workload_answer(const Workload& w, const AlphaBeta& m, const TrainingParams& p, int measured, double compute) {
  const double grad = w.params * p.grad_bytes_per_param;
  WorkloadAnswer out{w.name, w.params, grad, bucket_count(grad, p.bucket_bytes),
                     nodes_where_comm_exceeds_compute(m, grad, p.bucket_bytes, compute, 4096, p.sharding), {}};
  for (int n : node_counts(measured))
    out.rows.push_back({estimate(p.sharding, m, n, grad, p.bucket_bytes, compute), row_kind(n, measured)});
  return out;
}

// The alpha of the link-speed estimates: the user's (--alpha-us), else the data network's latency (the
// tcp latency test's p50, half a round trip), else the fit's, the last two at most kMaxProjectionAlphaS.
struct ProjectionAlpha {
  double s = 0;
  std::string from;
};

ProjectionAlpha projection_alpha(const Chosen& c, const TrainingInputs& in, const TrainingParams& p) {
  if (p.alpha_us) return {*p.alpha_us * 1e-6, "given (--alpha-us)"};
  ProjectionAlpha a{in.pair ? in.pair->half_rtt_s : c.model.alpha_s,
                    in.pair ? "the tcp latency test's p50 on " + (in.pair->interfaces.empty() ? std::string("the data network")
                                                                                             : joined(in.pair->interfaces)) +
                                  " (half the round trip)"
                            : "the fit"};
  const double bounded = std::min(a.s, kMaxProjectionAlphaS);
  if (bounded != a.s) a.from += ", bounded to 100 us from " + format_figure(a.s * 1e6) + " us";
  a.s = bounded;
  return a;
}

AlphaBeta with_alpha(AlphaBeta m, double alpha_s) {
  m.alpha_s = alpha_s;
  return m;
}

// How much the answer hangs on alpha: the focus workload's wait at 100GbE (the typical efficiency) at
// `n` nodes, with alpha halved, as chosen and doubled.
AlphaSensitivity alpha_sensitivity(const Chosen& c, const Workload& w, const TrainingParams& p, int n, double compute,
                                   const ProjectionAlpha& a) {
  AlphaSensitivity out{a.s, a.from, w.name, "100GbE", n, {}};
  for (double k : {0.5, 1.0, 2.0}) {
    const AlphaBeta m = with_alpha(at_link_speed(c.model, kTypicalEfficiency, 100), a.s * k);
    const auto e = estimate(p.sharding, m, n, w.params * p.grad_bytes_per_param, p.bucket_bytes, compute);
    out.waits.push_back({a.s * k, e.wait_no_overlap});
  }
  return out;
}

std::vector<LinkSpeed> link_speeds(const Chosen& c, const Workload& w, const TrainingParams& p, int measured, double compute,
                                   const ProjectionAlpha& alpha) {
  std::vector<LinkSpeed> out;
  const double grad = w.params * p.grad_bytes_per_param;
  const double capped = c.efficiency ? std::min(*c.efficiency, kTypicalEfficiency) : kTypicalEfficiency;
  for (double rate : kLinkSpeedsGbps) {
    LinkSpeed entry{ethernet_name(rate), rate, ethernet_ceiling_Bps(rate) / 1e9, std::nullopt, {}};
    auto project = [&](double eff) {
      const AlphaBeta m = with_alpha(at_link_speed(c.model, eff, rate), alpha.s);
      Projection pr{eff, eff * ethernet_ceiling_Bps(rate) / 1e9,
                    nodes_where_comm_exceeds_compute(m, grad, p.bucket_bytes, compute, 4096, p.sharding), {}};
      for (int n : node_counts(measured)) pr.rows.push_back(estimate(p.sharding, m, n, grad, p.bucket_bytes, compute));
      return pr;
    };
    if (c.efficiency) entry.at_run_efficiency = project(*c.efficiency);
    entry.at_capped_efficiency = project(capped);
    out.push_back(std::move(entry));
  }
  return out;
}

std::vector<DataMovement> data_movement(const Chosen& c, const TrainingInputs& in, double bytes, double alpha_s) {
  std::vector<DataMovement> out;
  auto add = [&](const std::string& network, const AlphaBeta& m, bool estimate) {
    out.push_back({network, bandwidth_GBps(m), transfer_s(m, bytes), estimate});
  };
  add("this network, fitted (" + c.path + ")", c.model, false);
  if (in.pair && !c.fallback) add("this network, tcp pair goodput", from_pair(in.pair->half_rtt_s, in.pair->goodput_Bps), false);
  for (double rate : kLinkSpeedsGbps)
    add(ethernet_name(rate) + " at " + format_figure(kTypicalEfficiency * 100) + " % of its ceiling",
        with_alpha(at_link_speed(c.model, kTypicalEfficiency, rate), alpha_s), true);
  return out;
}

}  // namespace

TrainingResult training_section(const Report& rep, const TrainingParams& p) {
  const TrainingInputs in = select_training_inputs(rep);
  TrainingResult s;
  s.inputs = p;
  std::vector<std::vector<RegimeFit>> fits;
  for (const auto& c : in.curves) {
    fits.push_back(fit_regimes(c.points));
    s.fits.push_back({c.source, c.path, c.nodes, c.ranks, static_cast<int>(c.points.size()), fits.back()});
  }
  const auto chosen = choose(in, fits);
  const double threshold = p.latency_threshold_us.value_or(kDefaultLatencyThresholdUs);
  for (const auto& l : in.latency) s.latency.push_back({l.pair, l.p99_rtt_us, l.p99_rtt_us <= threshold});
  s.measured_steps = in.steps;
  if (!chosen) {
    s.reason = "no all-reduce curve (mpi or nccl suite) and no TCP pair goodput and latency (tcp suite) in this run";
    return s;
  }
  if (run_hosts(rep).size() == 1) {
    // Ranks on one host talk over shared memory or loopback: nothing between nodes was measured.
    s.reason = "the run spanned one host (its ranks talked over shared memory or loopback), so no network "
               "between nodes was measured; run it across 2 or more nodes to answer";
    return s;
  }
  const double compute = p.step_compute_s.value_or(kDefaultStepComputeS);
  const int measured = chosen->fallback ? 2 : chosen->nodes;
  s.available = true;
  s.model = {chosen->path, chosen->source, chosen->regime, chosen->fallback, measured, chosen->model,
             chosen->efficiency, chosen->network, chosen->elsewhere, ""};
  // A ring of 2 ranks, not 2 nodes: 2 nodes with 2 ranks each form a ring of 4 whose network links
  // each carry one direction, as a larger ring's do (report/training/TRAINING.md section 1).
  if (!chosen->fallback && ring_neighbours_coincide(chosen->ranks))
    s.model.note = "fitted on a ring of 2 ranks, whose left and right neighbour are the same peer: Open MPI's "
                   "TCP transport then carries both directions of each step on one connection (btl_tcp_links 2 "
                   "does not change that), ~0.6x the per-direction bandwidth of the one-way connections of "
                   "3+ ranks, so larger counts may be predicted slow; 2 ranks per node avoid it "
                   "(report/training/TRAINING.md section 1)";
  for (const auto& w : workloads(p)) s.workloads.push_back(workload_answer(w, chosen->model, p, measured, compute));
  const Workload focus = workloads(p).front().name == "your model" ? workloads(p).front() : Workload{"7B", 7e9};
  s.link_speeds_workload = focus.name;
  const ProjectionAlpha alpha = projection_alpha(*chosen, in, p);
  s.link_speeds = link_speeds(*chosen, focus, p, measured, compute, alpha);
  s.alpha_sensitivity = alpha_sensitivity(*chosen, focus, p, std::max(measured, 4), compute, alpha);
  s.data_movement = data_movement(*chosen, in, p.dataset_bytes.value_or(kDefaultDatasetBytes), alpha.s);
  return s;
}

std::optional<TrainingResult> training_answer(const Report& rep, const TrainingParams& p) {
  TrainingResult s = training_section(rep, p);
  // A run with nothing to model (say, the topo suite alone) gets no section at all.
  if (!s.available && s.latency.empty()) return std::nullopt;
  return s;
}

TrainingParams stored_params(const Report& rep) {
  if (!rep.extra.is_object() || !rep.extra.contains("training")) return {};
  const auto& t = rep.extra["training"];
  return t.is_object() && t.contains("inputs") ? params_from_json(t["inputs"]) : TrainingParams{};
}

}  // namespace gpunet::report::training
