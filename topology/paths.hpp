// Path classes between two devices, as nvidia-smi topo -m names them (X, PIX, PXB, PHB, NODE, SYS),
// found from each device's chain of bridges by walking parent pointers (hwloc 2.9's
// hwloc_get_common_ancestor_obj is not usable on I/O objects). With LCA = the lowest bridge both
// devices sit below:
//  PIX  LCA is a PCI-to-PCI bridge and each device has at most one bridge below the LCA: both sit on
//       one PCIe switch (its upstream port and one downstream port each), or are functions of one
//       device. NCCL topology files fold a switch into one <pci> element, so there both devices must
//       be direct children of the LCA (SourceFormat::nccl_xml).
//  PXB  LCA is a PCI-to-PCI bridge, deeper than that (several switch levels).
//  PHB  LCA is a host bridge (one root complex). In NCCL files the <cpu> plays the host bridge.
//  NODE no common bridge, and both devices are local to the same set of NUMA nodes.
//  SYS  no common bridge, and different NUMA nodes.
//
// Sub-NUMA clustering (Intel SNC, AMD NPS): one package split into several NUMA nodes. Decision:
// devices on different NUMA nodes are SYS even inside one package, as NVML/nvidia-smi and NCCL treat
// them (both key "node" on the NUMA node), so our matrix matches what users compare it with. The
// pair carries same_package = true so that the matrix shows "SYS*" with a legend line and the
// findings call it a sub-NUMA hop, milder than crossing the CPU interconnect.
#pragma once

#include <string>
#include <vector>

#include "topology/model.hpp"

namespace gpunet::topo {

enum class PathClass { X, PIX, PXB, PHB, NODE, SYS };  // ordered from nearest to farthest

std::string to_string(PathClass c);
std::optional<PathClass> path_class_from_string(const std::string& s);

struct Path {
  PathClass cls = PathClass::SYS;
  bool same_package = false;  // for SYS: both devices in one package (sub-NUMA domains)
};

Path classify_path(const Device& a, const Device& b, SourceFormat format);

struct PathPair {
  std::string a, b;  // bus ids
  Path path;
};

// Every GPU x GPU pair (a before b in device order) and every GPU x NIC pair.
std::vector<PathPair> gpu_pairs(const NodeTopology& t);

// For one GPU: the nearest NICs (all those at the smallest class), optionally only RDMA-capable ones.
std::vector<const Device*> nearest_nics(const NodeTopology& t, const Device& gpu, bool rdma_only);

}  // namespace gpunet::topo
