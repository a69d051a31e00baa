#include "report/judge/verdicts.hpp"

#include <algorithm>

#include "report/judge/networks.hpp"
#include "report/judge/verdicts_fabric.hpp"
#include "report/judge/verdicts_congestion.hpp"
#include "report/judge/verdicts_facts.hpp"
#include "report/judge/verdicts_figures.hpp"
#include "report/judge/verdicts_topology.hpp"

namespace gpunet::report {

namespace {

Verdict check_nodes(const Report& report, int promised) {
  const auto hosts = run_hosts(report);
  const std::string limit = ">= " + std::to_string(promised) + " nodes";
  if (hosts.empty()) return {"nodes", VerdictStatus::skip, "-", limit, "the report names no host", {}, {}};
  const std::string measured = std::to_string(hosts.size()) + " nodes";
  if (static_cast<int>(hosts.size()) >= promised)
    return {"nodes", VerdictStatus::pass, measured, limit, "the run spanned " + measured, {}, {}};
  return {"nodes", VerdictStatus::fail, measured, limit,
          "the run spanned " + std::to_string(hosts.size()) + " of the " + std::to_string(promised) +
              " nodes promised: a node is missing from the job (down, drained or left out of the hostfile)",
          {}, {}};
}

}  // namespace

std::vector<Verdict> evaluate(const Report& report, const Spec& spec) {
  const auto nodes = node_facts(report.topology);
  const std::string match = spec.nic ? spec.nic->match : std::string{};
  std::vector<Verdict> out;
  if (spec.nodes) out.push_back(check_nodes(report, *spec.nodes));
  if (spec.nic) {
    std::vector<CarrierIface> carried;
    for (const auto& u : interfaces_used(report)) carried.push_back({u.host, u.iface});
    out.push_back(check_nic(nodes, *spec.nic, carried));
  }
  if (spec.pcie_gpu) out.push_back(check_pcie_gpu(nodes, *spec.pcie_gpu));
  if (spec.pcie_nic) out.push_back(check_pcie_nic(nodes, *spec.pcie_nic, match));
  if (spec.worst_path) out.push_back(check_locality(nodes, *spec.worst_path, match));
  for (std::size_t i = 0; i < spec.bandwidth.size(); ++i) out.push_back(judge_bandwidth(report, spec.bandwidth[i], i, promised_rate_Gbps(spec)));
  for (std::size_t i = 0; i < spec.latency.size(); ++i) out.push_back(judge_latency(report, spec.latency[i], i));
  for (std::size_t i = 0; i < spec.stability.size(); ++i) out.push_back(judge_stability(report, spec.stability[i], i));
  if (spec.homogeneity) {
    if (spec.homogeneity->topology) out.push_back(check_same_topology(nodes, match));
    for (std::size_t i = 0; i < spec.homogeneity->figures.size(); ++i)
      out.push_back(judge_spread(report, spec.homogeneity->figures[i], i));
  }
  if (spec.fabric) out.push_back(judge_fabric(report, *spec.fabric));
  if (spec.congestion) out.push_back(judge_congestion(report, *spec.congestion));
  if (auto w = network_warning(report)) out.push_back(*w);  // a network nobody chose, measured
  return out;
}

std::string overall_verdict(const std::vector<Verdict>& verdicts) {
  const auto any = [&](VerdictStatus s) {
    return std::any_of(verdicts.begin(), verdicts.end(), [&](const Verdict& v) { return v.status == s; });
  };
  if (any(VerdictStatus::fail)) return "FAIL";
  if (any(VerdictStatus::skip)) return "INCOMPLETE";
  return any(VerdictStatus::warn) ? "PASS with warnings" : "PASS";
}

int verdict_exit_code(const std::vector<Verdict>& verdicts) {
  const std::string overall = overall_verdict(verdicts);
  return overall == "FAIL" ? 1 : overall == "INCOMPLETE" ? kIncompleteExitCode : 0;
}

}  // namespace gpunet::report
