// The ceiling of the path one record's traffic took, from the link descriptions suites attach to
// Record::extra and from the node topology. Key contract: see report/analysis/analysis.hpp.
#pragma once

#include <string>

#include "common/json.hpp"

#include "report/analysis/ceilings.hpp"
#include "report/model/record.hpp"
#include "report/analysis/topology_view.hpp"

namespace gpunet::report {

// extra.link, what the host sends: Ethernet/TCP goodput at the stated rate (--link-rate, stated_rate_bps) or the NIC speed
// of a physical NIC, the lower of that and a tbf shaping rate; unknown for loopback / shared memory
// and for a virtual NIC (veth, bridge, tun) whose rate nobody stated. Gb/s.
Ceiling link_ceiling(const gpunet::json& link);

// What a host receives over `link`: its wire rate and an ingress policer (ingress_rate_bps). A root
// tbf (shaped_rate_bps) shapes only what the host sends; unless `egress_only`, it is taken to bound
// what the host receives too (a link shaped at both ends, as launch/fakecluster shapes it), and the
// derivation says so. `egress_only`: the flows into the host ran above that shaper
// (report/analysis/direction.hpp), so it does not bound them. Gb/s.
Ceiling incoming_link_ceiling(const gpunet::json& link, bool egress_only);

// A directed TCP flow between two hosts: the lower of the sender's outgoing rate (link_ceiling) and
// the receiver's incoming rate (incoming_link_ceiling), each divided among the flows that share that
// end at once (one-to-many: the sender's; many-to-one: the receiver's). Unknown when either end is,
// except that a receiver whose shaper is known to be egress only and whose incoming rate is unknown
// leaves the sender's rate as the bound. Gb/s.
Ceiling tcp_flow_ceiling(const gpunet::json& src_link, const gpunet::json& dst_link, int sending_share,
                         int receiving_share, bool receiver_shaper_egress_only = false);

// extra.rdma: RoCEv2 or InfiniBand goodput, capped by the NIC's PCIe link when extra.rdma.pcie is given. Gb/s.
Ceiling rdma_ceiling(const gpunet::json& rdma);

// extra.pcie (falling back to the GPU's pcie section in the topology): the link the device is capable
// of (max_gen/max_width when known, else the trained one), TLP-adjusted when MPS is known. GB/s.
Ceiling pcie_ceiling(const gpunet::json& pcie, const gpunet::json* topo_gpu);

// The intra-node path of a GPU collective (extra.intra or the topology's GPU nvlink section). GB/s.
Ceiling intra_node_ceiling(const Record& r, const TopologyView& topo);

// The bus-bandwidth ceiling of a collective record (single node: intra-node; several: Ring model). GB/s.
// `nodes` is the node count its ranks span, 0 when unknown.
Ceiling collective_ceiling(const Record& r, int nodes, const TopologyView& topo);

// Per-NIC bandwidth of the network a collective used (NET/Socket -> TCP goodput; NET/IB or RDMA ->
// NCCL's effective share of the line rate; MPI -> TCP goodput of extra.link). GB/s.
Ceiling collective_nic_ceiling(const Record& r, const TopologyView& topo);

}  // namespace gpunet::report
