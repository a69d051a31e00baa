#include "report/analysis/topology_view.hpp"

#include "report/model/json_access.hpp"

namespace gpunet::report {

using gpunet::json;

TopologyView::TopologyView(const json& topology) {
  auto add = [this](const std::string& host, const json& section) {
    if (!section.is_object() || host.empty() || nodes_.count(host)) return;
    nodes_[host] = &section;
    order_.push_back(host);
  };
  if (!topology.is_object()) return;
  const auto it = topology.find("nodes");
  if (it != topology.end() && it->is_array()) {
    for (const auto& n : *it)
      if (auto h = jsonx::string(n, "host")) add(*h, n);
  } else if (it != topology.end() && it->is_object()) {
    for (const auto& [host, n] : it->items()) add(host, n);
  } else {
    for (const auto& [host, n] : topology.items()) add(host, n);
  }
}

const json* TopologyView::node(const std::string& host) const {
  const auto it = nodes_.find(host);
  return it == nodes_.end() ? nullptr : it->second;
}

const json* TopologyView::gpu(const std::string& host, int index) const {
  const json* n = node(host);
  const json* gpus = n ? jsonx::array_at(*n, "gpus") : nullptr;
  if (!gpus) return nullptr;
  for (const auto& g : *gpus)
    if (jsonx::integer(g, "index") == index) return &g;
  return nullptr;
}

const json* TopologyView::nic(const std::string& host, const std::string& name) const {
  const json* n = node(host);
  const json* nics = n ? jsonx::array_at(*n, "nics") : nullptr;
  if (!nics || name.empty()) return nullptr;
  for (const auto& x : *nics)
    if (jsonx::string(x, "name") == name || jsonx::string(x, "netdev") == name) return &x;
  return nullptr;
}

std::optional<std::string> TopologyView::path_class(const std::string& host, int gpu_index,
                                                    const std::string& nic_name) const {
  const json* n = node(host);
  const json* paths = n ? jsonx::array_at(*n, "paths") : nullptr;
  if (!paths) return std::nullopt;
  for (const auto& p : *paths)
    if (jsonx::integer(p, "gpu") == gpu_index && jsonx::string(p, "nic") == nic_name) return jsonx::string(p, "class");
  return std::nullopt;
}

std::vector<std::string> TopologyView::rdma_nics(const std::string& host) const {
  std::vector<std::string> out;
  const json* n = node(host);
  const json* nics = n ? jsonx::array_at(*n, "nics") : nullptr;
  if (!nics) return out;
  for (const auto& x : *nics) {
    const auto kind = jsonx::string(x, "kind").value_or("");
    const bool rdma = kind == "infiniband" || kind == "roce" || jsonx::string(x, "link_layer").has_value();
    if (auto name = jsonx::string(x, "name"); rdma && name) out.push_back(*name);
  }
  return out;
}

std::vector<TopologyMatrix> TopologyView::matrices() const {
  std::vector<TopologyMatrix> out;
  for (const auto& host : order_) {
    const json* m = jsonx::object_at(*nodes_.at(host), "matrix");
    const json* labels = m ? jsonx::array_at(*m, "labels") : nullptr;
    const json* cells = m ? jsonx::array_at(*m, "cells") : nullptr;
    if (!labels || !cells || labels->size() != cells->size() || labels->empty()) continue;
    TopologyMatrix t;
    t.host = host;
    bool ok = true;
    for (const auto& l : *labels) {
      if (!l.is_string()) ok = false;
      else t.labels.push_back(l.get<std::string>());
    }
    for (const auto& row : *cells) {
      if (!row.is_array() || row.size() != labels->size()) {
        ok = false;
        break;
      }
      auto& r = t.cells.emplace_back();
      for (const auto& c : row) r.push_back(c.is_string() ? c.get<std::string>() : c.dump());
    }
    if (ok) out.push_back(std::move(t));
  }
  return out;
}

}  // namespace gpunet::report
