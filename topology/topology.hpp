// Public entry points of the topology library (namespace gpunet::topo). The rest of the program
// needs only this header, findings.hpp, compare.hpp, render.hpp and json.hpp.
#pragma once

#include <string>

#include "topology/compare.hpp"
#include "topology/findings.hpp"
#include "topology/model.hpp"

namespace gpunet::topo {

// Where the readers look. Tests point sys/proc at trees they built and turn live_queries off.
struct SystemRoots {
  std::string sys = "/sys";
  std::string proc = "/proc";
  bool live_queries = true;  // ethtool ioctl, getifaddrs, ibverbs, CUDA: only for the real machine
};

// The live machine: hwloc (all I/O objects kept) plus sysfs/procfs details and, when built with
// CUDA, the CUDA ordinal of each GPU. Throws std::runtime_error only when hwloc itself fails.
NodeTopology discover_local(const std::string& sysfs_root = "/sys");
NodeTopology discover_local(const SystemRoots& roots);

// An hwloc XML export (v1 or v2) or an NCCL topology file, told apart by the root element.
// Throws InputError with a one-line message for a missing, unreadable, empty or malformed file.
NodeTopology load_topology_file(const std::string& path);

// Adds what sysfs/procfs (and, with live_queries, the kernel and libraries) know about the devices
// already in `t`: PCIe link state, network interfaces, RDMA ports, default routes.
void enrich_from_system(NodeTopology& t, const SystemRoots& roots);

}  // namespace gpunet::topo
