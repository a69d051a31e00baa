#include "report/analysis/summary_nvlink.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "report/model/json_access.hpp"
#include "report/analysis/topology_view.hpp"

namespace gpunet::report {

namespace {

constexpr const char* kWhyUnmeasured = "not measured: no suite copies between GPUs (pcie: host<->device only)";

// "NV12" -> 12; 0 for any other path class.
int nvlink_links(const std::string& cls) {
  if (cls.size() < 3 || cls.compare(0, 2, "NV") != 0) return 0;
  for (size_t i = 2; i < cls.size(); ++i)
    if (cls[i] < '0' || cls[i] > '9') return 0;
  return std::stoi(cls.substr(2));
}

// The NVLink generation of the node's GPUs: as they state it (gpus[].nvlink.gen), else by the GPU
// model in their name (V100, A100, H100/H200, B200/GB200: report/CEILINGS.md §4), else 0.
int nvlink_gen(const gpunet::json& gpus) {
  for (const auto& g : gpus)
    if (const auto* nv = jsonx::object_at(g, "nvlink"))
      if (const auto gen = jsonx::integer(*nv, "gen")) return *gen;
  for (const auto& g : gpus) {
    const std::string name = jsonx::string(g, "name").value_or("");
    for (int gen = 2; gen <= 5; ++gen) {
      const std::string models = nvlink_generation(gen)->gpu;  // "H100/H200"
      for (size_t at = 0; at < models.size();) {
        const size_t slash = std::min(models.find('/', at), models.size());
        if (name.find(models.substr(at, slash - at)) != std::string::npos) return gen;
        at = slash + 1;
      }
    }
  }
  return 0;
}

// The path class of each pair of the node's GPUs: from the discovery's pairs (by bus id), else from
// the nvidia-smi-style matrix (rows and columns labelled GPU<n>).
std::vector<std::string> gpu_pair_classes(const gpunet::json& node, const gpunet::json& gpus) {
  std::vector<std::string> out;
  std::set<std::string> ids;
  for (const auto& g : gpus)
    if (const auto id = jsonx::string(g, "bus_id")) ids.insert(*id);
  if (const auto* pairs = jsonx::array_at(node, "pairs"))
    for (const auto& p : *pairs)
      if (ids.count(jsonx::string(p, "a").value_or("")) && ids.count(jsonx::string(p, "b").value_or("")))
        out.push_back(jsonx::string(p, "class").value_or(""));
  const auto* m = jsonx::object_at(node, "matrix");
  const auto* labels = m ? jsonx::array_at(*m, "labels") : nullptr;
  const auto* cells = m ? jsonx::array_at(*m, "cells") : nullptr;
  if (!out.empty() || !labels || !cells) return out;
  const auto is_gpu = [&](size_t i) { return i < labels->size() && (*labels)[i].is_string() && (*labels)[i].get<std::string>().rfind("GPU", 0) == 0; };
  for (size_t i = 0; i < cells->size(); ++i)
    for (size_t j = i + 1; is_gpu(i) && (*cells)[i].is_array() && j < (*cells)[i].size(); ++j)
      if (is_gpu(j) && (*cells)[i][j].is_string()) out.push_back((*cells)[i][j].get<std::string>());
  return out;
}

}  // namespace

std::vector<NvlinkSummaryRow> nvlink_summary_rows(const Report& rep) {
  std::vector<NvlinkSummaryRow> out;
  const TopologyView view(rep.topology);
  for (const auto& host : view.hosts()) {
    const auto* node = view.node(host);
    const auto* gpus = node ? jsonx::array_at(*node, "gpus") : nullptr;
    if (!gpus || gpus->size() < 2) continue;
    const size_t pairs = gpus->size() * (gpus->size() - 1) / 2;
    std::map<int, size_t> pairs_by_links;  // links per pair -> GPU pairs with that many
    std::set<std::string> pcie_classes;
    for (const auto& cls : gpu_pair_classes(*node, *gpus)) {
      if (const int links = nvlink_links(cls)) ++pairs_by_links[links];
      else if (!cls.empty()) pcie_classes.insert(cls);
    }
    if (pairs_by_links.empty()) {
      std::string classes;
      for (const auto& c : pcie_classes) classes += (classes.empty() ? "" : ", ") + c;
      NvlinkSummaryRow row{host, std::string("NVLink between GPUs, ") + kWhyUnmeasured + "; the topology shows no NVLink" +
                                     (classes.empty() ? "" : " (GPU pairs over PCIe: " + classes + ")"),
                           host + " (" + std::to_string(gpus->size()) + " GPUs)", 0,
                           unknown_ceiling("the topology shows no NVLink")};
      out.push_back(std::move(row));
      continue;
    }
    const int gen = nvlink_gen(*gpus);
    for (const auto& [links, n] : pairs_by_links) {
      NvlinkSummaryRow row{host, "NVLink GPU<->GPU (NV" + std::to_string(links) + "), " + kWhyUnmeasured,
                           host + " (" + std::to_string(n) + " of " + std::to_string(pairs) + " GPU pairs)", links,
                           gen ? nvlink_line_rate(gen, links) : unknown_ceiling("the topology does not give the NVLink generation")};
      out.push_back(std::move(row));
    }
  }
  return out;
}

}  // namespace gpunet::report
