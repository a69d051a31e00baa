#include "report/analysis/uplink_locate.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace gpunet::report {

namespace {

using HostPair = std::pair<std::string, std::string>;

double uplink_median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string uplink_gbps(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g Gb/s", v);
  return buf;
}

// Whether the directed pair src -> dst crosses `leaf`'s uplink in the direction `way`.
bool crosses_uplink(const std::string& src_leaf, const std::string& dst_leaf, const std::string& leaf, UplinkWay way) {
  if (src_leaf == dst_leaf) return false;
  const bool up = src_leaf == leaf, down = dst_leaf == leaf;
  return way == UplinkWay::both ? up || down : way == UplinkWay::up ? up : down;
}

}  // namespace

std::string uplink_name(const UplinkCandidate& c) {
  switch (c.way) {
    case UplinkWay::up: return c.leaf + " → " + c.parent;
    case UplinkWay::down: return c.parent + " → " + c.leaf;
    case UplinkWay::both: break;
  }
  return c.leaf + " ↔ " + c.parent;
}

std::optional<UplinkSuspect> locate_slow_uplink(const std::vector<PairGoodput>& pairs,
                                                const std::vector<FabricLeaf>& leaves, double fraction) {
  std::map<std::string, std::string> leaf_of;
  for (const auto& l : leaves)
    for (const auto& h : l.hosts) leaf_of[h] = l.name;
  std::vector<const PairGoodput*> known;  // pairs whose both hosts the fabric places
  double best = 0;
  for (const auto& p : pairs)
    if (leaf_of.count(p.src) && leaf_of.count(p.dst) && p.src != p.dst) {
      known.push_back(&p);
      best = std::max(best, p.gbps);
    }
  if (best <= 0) return std::nullopt;
  std::set<HostPair> slow;
  for (const auto* p : known)
    if (p->gbps < fraction * best) slow.insert({p->src, p->dst});
  if (slow.empty()) return std::nullopt;

  UplinkSuspect s;
  std::set<std::string> suspect_leaves;
  for (const UplinkWay way : {UplinkWay::both, UplinkWay::up, UplinkWay::down})
    for (const auto& l : leaves) {
      std::set<HostPair> crossing;
      for (const auto* p : known)
        if (crosses_uplink(leaf_of[p->src], leaf_of[p->dst], l.name, way)) crossing.insert({p->src, p->dst});
      if (crossing.size() < 2 || crossing != slow) continue;
      s.links.push_back({l.name, l.parent, way});
      suspect_leaves.insert(l.name);
    }
  if (s.links.empty()) return std::nullopt;
  std::vector<double> cross_v, within_v;
  for (const auto* p : known) {
    if (slow.count({p->src, p->dst})) cross_v.push_back(p->gbps);
    else if (leaf_of[p->src] == leaf_of[p->dst] && suspect_leaves.count(leaf_of[p->src])) within_v.push_back(p->gbps);
  }
  for (const auto& leaf : suspect_leaves) {  // each suspect leaf needs a pair inside it that is fine
    const bool seen = std::any_of(known.begin(), known.end(), [&](const PairGoodput* p) {
      return leaf_of[p->src] == leaf && leaf_of[p->dst] == leaf;
    });
    if (!seen) return std::nullopt;
  }
  s.slow = s.crossing = static_cast<int>(slow.size());
  s.crossing_gbps = uplink_median(cross_v);
  s.within = static_cast<int>(within_v.size());
  s.within_gbps = uplink_median(within_v);
  s.explained.assign(slow.begin(), slow.end());
  return s;
}

std::string uplink_sentence(const UplinkSuspect& s) {
  std::string names, leaves;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < s.links.size(); ++i) {
    names += (i ? " or " : "") + uplink_name(s.links[i]);
    if (seen.insert(s.links[i].leaf).second) leaves += (leaves.empty() ? "" : " and ") + s.links[i].leaf;
  }
  const bool one = s.links.size() == 1;
  std::string out = names + ": " + std::to_string(s.slow) + " of " + std::to_string(s.crossing) + " pairs crossing " +
                    (one ? "it" : "them") + " at " + uplink_gbps(s.crossing_gbps) + ", pairs within " + leaves + " at " +
                    uplink_gbps(s.within_gbps) + ": suspect " + (one ? "the uplink" : "an uplink") + ", not the nodes";
  if (!one)
    out += " (each of these pairs crosses all of these links, so the pair figures cannot tell which; "
           "a third rack or a test of each uplink can)";
  return out;
}

}  // namespace gpunet::report
