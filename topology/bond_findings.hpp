// Bonds as one rail: a bond (link aggregation) carries what its members that are up carry. Findings:
//   bond_member_down    a member of a bond is not up (warning): the bond carries only what the others do
//   bond_member_speeds  the members that are up run at different speeds (warning): a flow hashed onto the
//                       slower member gets that member's speed
// Pure: read from the interfaces of a NodeTopology (sysfs: bonding/slaves, operstate, speed).
#pragma once

#include <vector>

#include "topology/findings.hpp"
#include "topology/model.hpp"

namespace gpunet::topo {

// Appends the bond findings of `t`.
void bond_findings(const NodeTopology& t, std::vector<Finding>& out);

}  // namespace gpunet::topo
