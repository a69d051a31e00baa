// Localising slow pairs to links: from the directed pair figures of the matrix (re-tests where there
// are some), the fabric file's leaves and each pair's ceiling, the smallest set of links (a node's NIC,
// a leaf's uplink, a spine) whose slowness explains every slow pair. A link can only be slow when every
// measured pair through it is slow, and it is named on two pairs or more. Links that carry exactly the
// same measured pairs cannot be told apart and are named together ("leaf0 ↔ spine or leaf1 ↔ spine");
// when a NIC and a fabric link carry the same pairs, or two sets of links of the same size explain the
// slow pairs, nothing is named and the node and pair findings speak. A slow pair that no link carries
// along with other slow pairs (a slow cable between two nodes fine with everyone else, or one pair a
// busy host slowed) is left to the pair findings: it does not keep the links that explain the other
// slow pairs from being named. Pure.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gpunet::report {

struct PairGoodput {
  std::string src, dst;
  double gbps = 0;
  double ceiling_gbps = 0;  // 0: unknown, the pair is measured against the best pair
};

// A leaf switch: its name, the switch at the other end of its uplink, the hosts hanging off it.
struct FabricLeaf {
  std::string name, parent;
  std::vector<std::string> hosts;
};

enum class UplinkWay { both, up, down };  // up: leaf -> parent (pairs leaving the leaf); for a NIC: sending
enum class LinkKind { nic, uplink, spine };

// A node's NIC (name: the host), a leaf's uplink (name: the leaf, parent: the switch above) or a spine
// (name: the switch; it carries the pairs between two of its leaves).
struct FabricLink {
  LinkKind kind = LinkKind::nic;
  std::string name, parent;
  UplinkWay way = UplinkWay::both;
};

using HostPair = std::pair<std::string, std::string>;

// One culprit: one link, or several that carry the same measured pairs (the pairs cannot tell which).
struct LinkCulprit {
  std::vector<FabricLink> links;
  std::vector<HostPair> pairs;   // every measured pair through it, all slow
  double gbps = 0;               // their median goodput
  double fraction = 0;           // their median fraction of their ceiling (or of the best pair)
  int within = 0;                // an uplink or spine: the fine pairs inside its leaves
  double within_gbps = 0;        // their median goodput
};

enum class LocateOutcome { nothing_slow, located, undecided };

struct LinkLocation {
  LocateOutcome outcome = LocateOutcome::nothing_slow;
  std::vector<LinkCulprit> culprits;  // located: the smallest set, fabric links first
  int slow = 0, fine = 0;             // placed pairs below and at or above the fraction
  double fine_worst = 0;              // the slowest fine pair's fraction: the others are at this or better
  std::vector<HostPair> unexplained;  // located: the slow pairs no named link carries (left to the pair findings)
  bool against_ceiling = false;       // fractions are of the pairs' ceilings (else of the best pair)
  std::string why;                    // undecided: why nothing is named
};

// A pair is slow below `fraction` of its ceiling (of the best pair when its ceiling is unknown). Pairs
// with a host the fabric does not place are left out. At most 4 culprits are searched for.
LinkLocation locate_slow_links(const std::vector<PairGoodput>& pairs, const std::vector<FabricLeaf>& leaves,
                               double fraction);

// The slow pairs the fabric links (uplinks, spines) of a location explain: the node findings for
// them are not repeated.
std::set<HostPair> fabric_explained(const LinkLocation& loc);

// "leaf1 ↔ spine", "leaf0 → spine", "spine → leaf1", "switch spine", "n7's NIC", "n7's NIC (sending)"
std::string link_name(const FabricLink& l);
// A culprit's links by name, "leaf0 ↔ spine or leaf1 ↔ spine" when the pairs cannot tell them apart.
std::string link_names(const LinkCulprit& c);

}  // namespace gpunet::report
