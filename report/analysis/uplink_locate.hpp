// Localising a slow switch uplink from the pair matrix: when the slow directed pairs are exactly the
// pairs that cross one leaf's uplink (both ways, or only leaving or only entering the leaf) and the
// pairs within that leaf are fine, the uplink explains every slow pair and no node is to blame
// ("leaf1 ↔ spine: 12 of 12 pairs crossing it at 0.48 Gb/s, pairs within leaf1 at 0.95 Gb/s:
// suspect the uplink, not the nodes"). With two leaves every pair between them crosses both uplinks,
// so both are named. Pure.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpunet::report {

struct PairGoodput {
  std::string src, dst;
  double gbps = 0;
};

// A leaf switch: its name, the switch at the other end of its uplink, the hosts hanging off it.
struct FabricLeaf {
  std::string name, parent;
  std::vector<std::string> hosts;
};

enum class UplinkWay { both, up, down };  // up: leaf -> parent (pairs leaving the leaf)

struct UplinkCandidate {
  std::string leaf, parent;
  UplinkWay way = UplinkWay::both;
};

struct UplinkSuspect {
  std::vector<UplinkCandidate> links;  // one, or several whose crossing pairs are the same set
  int slow = 0, crossing = 0;          // slow pairs among the pairs crossing the link
  double crossing_gbps = 0;            // median goodput of the crossing pairs
  int within = 0;                      // pairs within the suspect leaves (all fine)
  double within_gbps = 0;              // their median goodput
  std::vector<std::pair<std::string, std::string>> explained;  // the slow directed pairs it explains
};

// The uplink that explains the slow pairs, if one does. A pair is slow below `fraction` of the best
// pair. Nothing when no pair is slow, when no leaf's crossing set equals the slow set, or when a
// suspect leaf has no measured pair within it (one host: its NIC would explain the same pairs).
std::optional<UplinkSuspect> locate_slow_uplink(const std::vector<PairGoodput>& pairs,
                                                const std::vector<FabricLeaf>& leaves, double fraction);

// "leaf1 ↔ spine", "leaf0 → spine", "spine → leaf1"
std::string uplink_name(const UplinkCandidate& c);

// The finding's sentence, as in the header comment.
std::string uplink_sentence(const UplinkSuspect& s);

}  // namespace gpunet::report
