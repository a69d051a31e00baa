// select_port and select_port_near_gpu: pure, over a Discovery (tests build one by hand) and a
// topology model (tests load real machines' hwloc exports).
#include <algorithm>
#include <cstdlib>

#include "bench/suites/rdma/engine.hpp"
#include "topology/paths.hpp"

namespace gpunet::bench::rdma {

namespace {

std::string port_name(const DeviceEntry& d, const PortEntry& p) { return d.name + ":" + std::to_string(p.port); }

PortSelection use(const DeviceEntry& d, const PortEntry& p, std::string how) {
  PortSelection s;
  s.kind = PortSelection::Kind::use;
  s.device = d.name;
  s.port = p.port;
  s.info = &p.info;
  s.entry = &d;
  s.reason = std::move(how);
  return s;
}

PortSelection not_used(PortSelection::Kind kind, std::string reason) {
  PortSelection s;
  s.kind = kind;
  s.reason = std::move(reason);
  return s;
}

}  // namespace

PortSelection select_port(const Discovery& d, const std::string& wanted) {
  using Kind = PortSelection::Kind;
  if (!d.built_with_verbs) return not_used(Kind::skip, "built without libibverbs");
  if (!d.error.empty()) return not_used(Kind::skip, d.error);
  if (d.devices.empty()) return not_used(Kind::skip, "no RDMA devices");

  std::string want_dev = wanted;
  int want_port = 0;
  if (const auto colon = wanted.rfind(':'); colon != std::string::npos) {
    want_dev = wanted.substr(0, colon);
    char* end = nullptr;
    const std::string num = wanted.substr(colon + 1);
    want_port = static_cast<int>(std::strtol(num.c_str(), &end, 10));
    if (num.empty() || *end != '\0' || want_port < 1)
      return not_used(Kind::fail, "--rdma-dev " + wanted + ": the port must be a number from 1 (e.g. mlx5_0:1)");
  }

  std::string seen;  // every port and its state, for the reasons
  for (const auto& dev : d.devices) {
    if (!want_dev.empty() && dev.name != want_dev) continue;
    if (!dev.error.empty()) seen += (seen.empty() ? "" : ", ") + dev.name + " (" + dev.error + ")";
    for (const auto& p : dev.ports) {
      if (want_port && p.port != want_port) continue;
      if (p.info.active) return use(dev, p, want_dev.empty() ? "first ACTIVE port" : "--rdma-dev " + wanted);
      seen += (seen.empty() ? "" : ", ") + port_name(dev, p) + " " + p.info.state;
    }
  }
  if (want_dev.empty()) return not_used(Kind::skip, "no active RDMA port (" + seen + ")");

  std::string names;
  bool found = false;
  for (const auto& dev : d.devices) {
    names += (names.empty() ? "" : ", ") + dev.name;
    found = found || dev.name == want_dev;
  }
  if (!found) return not_used(Kind::fail, "--rdma-dev " + wanted + ": no such RDMA device (found: " + names + ")");
  if (seen.empty()) return not_used(Kind::fail, "--rdma-dev " + wanted + ": no such port");
  return not_used(Kind::fail, "--rdma-dev " + wanted + ": not ACTIVE (" + seen + ")");
}

namespace {

const topo::Device* find_gpu(const topo::NodeTopology& t, int cuda_ordinal) {
  const auto gpus = t.gpus();
  for (const topo::Device* g : gpus)
    if (g->cuda_ordinal == cuda_ordinal) return g;
  // No ordinals in the model (e.g. no cudaN OS devices): take the GPUs in bus order.
  const bool none_known = std::all_of(gpus.begin(), gpus.end(), [](const topo::Device* g) { return g->cuda_ordinal < 0; });
  if (none_known && cuda_ordinal >= 0 && static_cast<size_t>(cuda_ordinal) < gpus.size()) return gpus[static_cast<size_t>(cuda_ordinal)];
  return nullptr;
}

const topo::Device* nic_of(const topo::NodeTopology& t, const std::string& rdma_dev) {
  for (const topo::Device* n : t.nics())
    for (const auto& r : n->rdma_devs)
      if (r == rdma_dev) return n;
  return nullptr;
}

}  // namespace

PortSelection select_port_near_gpu(const Discovery& d, const topo::NodeTopology& t, int cuda_ordinal) {
  const std::string gpu_name = "cuda:" + std::to_string(cuda_ordinal);
  const topo::Device* gpu = find_gpu(t, cuda_ordinal);
  auto fallback = [&](const std::string& why) {
    PortSelection s = select_port(d, "");
    if (s.kind != PortSelection::Kind::use) return s;
    s.reason = why + "; first ACTIVE port";
    s.gpu_index = cuda_ordinal;
    if (const topo::Device* nic = gpu ? nic_of(t, s.device) : nullptr) s.gpu_nic_path = topo::to_string(topo::classify_path(*gpu, *nic, t.format).cls);
    return s;
  };
  if (!gpu) return fallback(gpu_name + " is not in the topology model");
  const auto near = topo::nearest_nics(t, *gpu, true);
  if (near.empty()) return fallback("the topology model shows no RDMA NIC");
  std::string tried;
  for (size_t k = 0; k < near.size(); ++k) {
    const topo::Device* nic = near[(static_cast<size_t>(cuda_ordinal) + k) % near.size()];
    for (const auto& name : nic->rdma_devs) {
      PortSelection s = select_port(d, name);
      tried += (tried.empty() ? "" : ", ") + name;
      if (s.kind != PortSelection::Kind::use) continue;
      s.gpu_index = cuda_ordinal;
      s.gpu_nic_path = topo::to_string(topo::classify_path(*gpu, *nic, t.format).cls);
      s.reason = "nearest RDMA NIC to " + gpu_name + " (" + gpu->bus_id + "): " + name + " at " + s.gpu_nic_path;
      return s;
    }
  }
  return fallback("no ACTIVE port on the RDMA NIC nearest to " + gpu_name + " (" + tried + ")");
}

}  // namespace gpunet::bench::rdma
