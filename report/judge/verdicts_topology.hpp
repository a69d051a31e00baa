// The promises judged from the per-node topology alone (NICs, PCIe links, GPU-NIC locality, sameness
// of nodes). Used by evaluate(); declared here so that they can be tested one by one. Pure.
#pragma once

#include <string>
#include <vector>

#include "report/judge/spec.hpp"
#include "report/judge/verdicts.hpp"
#include "report/judge/verdicts_facts.hpp"

namespace gpunet::report {

// The NICs a spec counts: those with a name (RDMA, netdev or device name) that nic.match finds
// (every NIC when there is no nic section or no match).
bool nic_counted(const NicFact& nic, const std::string& match);

// An interface that carried a suite's traffic on a host (report/judge/networks.hpp, interfaces_used).
struct CarrierIface {
  std::string host, iface;
};

// A speed promise without nic.match and without nic.count judges, on each host where the run's tcp or
// rdma records name the interface that carried their traffic, that interface (the NIC that owns it, or
// the netdev itself) rather than every NIC of the topology; the row says which. Hosts with no such
// record, counts and matches judge the NICs of the topology.
Verdict check_nic(const std::vector<NodeFacts>& nodes, const NicSpec& spec, const std::vector<CarrierIface>& carried = {});
Verdict check_pcie_gpu(const std::vector<NodeFacts>& nodes, const LinkSpec& spec);
Verdict check_pcie_nic(const std::vector<NodeFacts>& nodes, const LinkSpec& spec, const std::string& match);
Verdict check_locality(const std::vector<NodeFacts>& nodes, PathClass worst, const std::string& match);
Verdict check_same_topology(const std::vector<NodeFacts>& nodes, const std::string& match);

}  // namespace gpunet::report
