#include "topology/pairing.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace gpunet::topo {

namespace {

std::vector<const Device*> pairing_candidates(const NodeTopology& t) {
  std::vector<const Device*> rdma, all = t.nics();
  for (const Device* n : all)
    if (n->rdma_capable()) rdma.push_back(n);
  return rdma.empty() ? all : rdma;
}

// "NIC 0000:5f:00.0 (ib0, mlx5_0)".
std::string pairing_label(const Device& d) {
  std::string names;
  for (const auto& n : d.netdevs) names += (names.empty() ? "" : ", ") + n;
  for (const auto& n : d.rdma_devs) names += (names.empty() ? "" : ", ") + n;
  return to_string(d.kind) + " " + d.bus_id + (names.empty() ? "" : " (" + names + ")");
}

std::string joined_with_and(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return out;
}

// The first RDMA handle of a NIC, else its first interface, else its bus id: what NCCL_IB_HCA names.
std::string nccl_name(const Device& nic) {
  if (!nic.rdma_devs.empty()) return nic.rdma_devs.front();
  return nic.netdevs.empty() ? nic.bus_id : nic.netdevs.front();
}

}  // namespace

std::vector<GpuNicPair> gpu_nic_pairing(const NodeTopology& t) {
  const auto candidates = pairing_candidates(t);
  std::map<const Device*, int> load;
  std::vector<GpuNicPair> out;
  for (const Device* g : t.gpus()) {
    GpuNicPair pair{g, nullptr, {}, false};
    for (const Device* n : candidates) {
      const Path p = classify_path(*g, *n, t.format);
      const bool nearer = !pair.nic || p.cls < pair.path.cls;
      const bool as_near_less_loaded = pair.nic && p.cls == pair.path.cls && load[n] < load[pair.nic];
      if (nearer || as_near_less_loaded) {
        pair.nic = n;
        pair.path = p;
      }
    }
    if (pair.nic) {
      ++load[pair.nic];
      pair.same_numa = g->numa() >= 0 && g->numa() == pair.nic->numa();
    }
    out.push_back(pair);
  }
  return out;
}

std::vector<std::string> carrying_interfaces(const NodeTopology& t, const Device& nic) {
  std::vector<std::string> out;
  for (const auto& name : nic.netdevs) {
    const NetInterface* i = t.find_interface(name);
    out.push_back(i && !i->master.empty() ? i->master : name);
  }
  return out;
}

std::vector<std::string> gpu_paired_interfaces(const NodeTopology& t) {
  std::vector<std::string> out;
  for (const auto& p : gpu_nic_pairing(t)) {
    if (!p.nic) continue;
    const auto mine = carrying_interfaces(t, *p.nic);
    out.insert(out.end(), mine.begin(), mine.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void pairing_findings(const NodeTopology& t, std::vector<Finding>& out) {
  const auto pairs = gpu_nic_pairing(t);
  std::vector<const Device*> idle;
  for (const Device* n : t.nics())
    if (n->rdma_capable() && std::none_of(pairs.begin(), pairs.end(), [&](const GpuNicPair& p) { return p.nic == n; }))
      idle.push_back(n);
  if (idle.empty()) return;
  std::map<const Device*, std::vector<const GpuNicPair*>> by_nic;
  for (const auto& p : pairs)
    if (p.nic) by_nic[p.nic].push_back(&p);
  size_t group = 0;  // each crowded NIC is offered its own spare while there are enough
  for (const Device* nic : t.nics()) {
    const auto it = by_nic.find(nic);
    if (it == by_nic.end() || it->second.size() < 2) continue;
    const Device& spare = *idle[std::min(group++, idle.size() - 1)];
    const auto& sharing = it->second;
    std::vector<std::string> gpus, idle_names;
    for (const auto* p : sharing) gpus.push_back(p->gpu->bus_id);
    for (const Device* n : idle) idle_names.push_back(pairing_label(*n));
    const Device& last_gpu = *sharing.back()->gpu;
    const Path spare_path = classify_path(last_gpu, spare, t.format);
    out.push_back({Severity::warning, "gpu_nic_shared",
                   "GPUs " + joined_with_and(gpus) + " share " + pairing_label(*nic) + " (" + to_string(sharing.front()->path.cls) +
                       ") while " + joined_with_and(idle_names) + (idle.size() == 1 ? " carries" : " carry") +
                       " no GPU's traffic, so each of them gets 1/" + std::to_string(sharing.size()) +
                       " of that NIC's bandwidth to other nodes. Fix: move " + nccl_name(spare) +
                       " into a slot under the PCIe switch of GPU " + last_gpu.bus_id +
                       " (or that GPU next to it) so each GPU has a NIC of its own; with the slots as they are, point "
                       "that GPU's rank at it with NCCL_IB_HCA=" + nccl_name(spare) + " (a " + to_string(spare_path.cls) +
                       " path).",
                   gpus, t.hostname});
  }
}

}  // namespace gpunet::topo
