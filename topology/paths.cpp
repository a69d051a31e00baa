#include "topology/paths.hpp"

#include <array>

namespace gpunet::topo {

namespace {

// Index in `chain` of the ancestor with this id, or -1.
int index_of(const std::vector<Ancestor>& chain, const std::string& id) {
  for (size_t i = 0; i < chain.size(); ++i)
    if (chain[i].id == id) return static_cast<int>(i);
  return -1;
}

}  // namespace

std::string to_string(PathClass c) {
  static const std::array<const char*, 6> names{"X", "PIX", "PXB", "PHB", "NODE", "SYS"};
  return names[static_cast<size_t>(c)];
}

std::optional<PathClass> path_class_from_string(const std::string& s) {
  for (int i = 0; i <= static_cast<int>(PathClass::SYS); ++i)
    if (to_string(static_cast<PathClass>(i)) == s) return static_cast<PathClass>(i);
  return std::nullopt;
}

Path classify_path(const Device& a, const Device& b, SourceFormat format) {
  if (a.bus_id == b.bus_id) return {PathClass::X, false};
  for (size_t ia = 0; ia < a.ancestors.size(); ++ia) {
    const int ib = index_of(b.ancestors, a.ancestors[ia].id);
    if (ib < 0) continue;
    const Ancestor& lca = a.ancestors[ia];
    if (lca.kind == Ancestor::Kind::host_bridge) return {PathClass::PHB, false};
    const size_t ports_allowed = format == SourceFormat::nccl_xml ? 0 : 1;
    const bool one_switch = ia <= ports_allowed && static_cast<size_t>(ib) <= ports_allowed;
    return {one_switch ? PathClass::PIX : PathClass::PXB, false};
  }
  if (!a.numa_nodes.empty() && a.numa_nodes == b.numa_nodes) return {PathClass::NODE, false};
  return {PathClass::SYS, a.package >= 0 && a.package == b.package};
}

std::vector<PathPair> gpu_pairs(const NodeTopology& t) {
  std::vector<PathPair> out;
  const auto gpus = t.gpus();
  const auto nics = t.nics();
  for (size_t i = 0; i < gpus.size(); ++i)
    for (size_t j = i + 1; j < gpus.size(); ++j)
      out.push_back({gpus[i]->bus_id, gpus[j]->bus_id, classify_path(*gpus[i], *gpus[j], t.format)});
  for (const Device* g : gpus)
    for (const Device* n : nics) out.push_back({g->bus_id, n->bus_id, classify_path(*g, *n, t.format)});
  return out;
}

std::vector<const Device*> nearest_nics(const NodeTopology& t, const Device& gpu, bool rdma_only) {
  std::vector<const Device*> best;
  auto best_class = PathClass::SYS;
  for (const Device* n : t.nics()) {
    if (rdma_only && !n->rdma_capable()) continue;
    const auto c = classify_path(gpu, *n, t.format).cls;
    if (best.empty() || c < best_class) {
      best.assign(1, n);  // (not `= {n}`: GCC 13 misreads that as an out-of-bounds copy)
      best_class = c;
    } else if (c == best_class) {
      best.push_back(n);
    }
  }
  return best;
}

}  // namespace gpunet::topo
