#include "topology/bond_findings.hpp"

#include <algorithm>
#include <string>

#include "common/strings.hpp"

namespace gpunet::topo {

namespace {

std::string gbps_text(int64_t mbps) { return rate_text(static_cast<double>(mbps) / 1000.0); }

std::string bond_label(const NetInterface& bond) {
  return bond.name + (bond.bond_mode.empty() ? "" : " (" + bond.bond_mode + ")");
}

void one_bond(const NodeTopology& t, const NetInterface& bond, std::vector<Finding>& out) {
  std::vector<std::string> down, speeds, subjects{bond.name};
  int64_t up_total = 0, all_total = 0, slowest = 0, fastest = 0;
  for (const auto& name : bond.members) {
    const NetInterface* m = t.find_interface(name);
    if (!m) continue;
    subjects.push_back(name);
    const int64_t mbps = m->speed_Mbps.value_or(0);
    all_total += mbps;
    if (m->operstate != "up") {
      down.push_back(name + (m->operstate.empty() ? "" : " (" + m->operstate + ")"));
      continue;
    }
    up_total += mbps;
    if (mbps <= 0) continue;
    speeds.push_back(name + " " + gbps_text(mbps));
    slowest = slowest == 0 ? mbps : std::min(slowest, mbps);
    fastest = std::max(fastest, mbps);
  }
  if (!down.empty()) {
    std::string carries = up_total > 0 && all_total > up_total
                              ? ", so it carries at most " + gbps_text(up_total) + " of its " + gbps_text(all_total)
                              : "";
    out.push_back({Severity::warning, "bond_member_down",
                   "Bond " + bond_label(bond) + ": member " + join(down, ", ") + " is not up" + carries +
                       "; check the member's cable, transceiver and switch port.",
                   subjects, t.hostname});
  }
  if (slowest > 0 && fastest > slowest)
    out.push_back({Severity::warning, "bond_member_speeds",
                   "Bond " + bond_label(bond) + ": its members run at different speeds (" + join(speeds, ", ") +
                       "); a flow hashed onto the slower member gets " + gbps_text(slowest) + ".",
                   subjects, t.hostname});
}

}  // namespace

void bond_findings(const NodeTopology& t, std::vector<Finding>& out) {
  for (const auto& i : t.interfaces)
    if (i.kind == IfKind::bond) one_bond(t, i, out);
}

}  // namespace gpunet::topo
