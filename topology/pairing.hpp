// GPU <-> NIC pairing: the NIC each GPU's traffic to other nodes should take (its nearest, as NCCL and
// the rdma suite's port choice prefer), with its path class and whether the two share a NUMA node; and
// the finding when GPUs crowd onto one NIC while another stands idle.
//
// Candidates are the RDMA-capable NICs when the node has any (a management or 1 GbE port is no
// partner for a GPU), else every NIC. Each GPU, in device order, takes one of its nearest candidates
// (nvidia-smi's path classes, paths.hpp), the one that carries the fewest GPUs so far (then the first
// in device order), so that two GPUs at equal distance from two NICs get one each.
//
// Finding produced (kind, severity):
//  gpu_nic_shared  two or more GPUs share one NIC while an RDMA-capable NIC carries no GPU (warning):
//                  each of them gets at most its share of the one NIC's bandwidth to other nodes, and
//                  the sentence says how to give each GPU its own NIC.
#pragma once

#include <string>
#include <vector>

#include "topology/findings.hpp"
#include "topology/model.hpp"
#include "topology/paths.hpp"

namespace gpunet::topo {

struct GpuNicPair {
  const Device* gpu = nullptr;
  const Device* nic = nullptr;  // null when the node has no NIC
  Path path;                    // GPU to NIC
  bool same_numa = false;       // both on one known NUMA node
};

// One entry per GPU, in device order. The pointers point into `t`.
std::vector<GpuNicPair> gpu_nic_pairing(const NodeTopology& t);

// The network interfaces of the NICs that some GPU is paired with, in name order without repeats: the
// data interfaces a GPU's traffic to other nodes takes (--tcp-if rails). A member of a bond gives the
// bond (the interface that carries the address). Empty when no GPU has a NIC or no NIC names its
// interfaces (an NCCL topology file names RDMA devices only).
std::vector<std::string> gpu_paired_interfaces(const NodeTopology& t);

// The interfaces of one NIC as they carry addresses: each netdev, or its bond when it is a member.
std::vector<std::string> carrying_interfaces(const NodeTopology& t, const Device& nic);

// Appends the gpu_nic_shared findings of `t`.
void pairing_findings(const NodeTopology& t, std::vector<Finding>& out);

}  // namespace gpunet::topo
