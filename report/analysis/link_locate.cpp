#include "report/analysis/link_locate.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace gpunet::report {

namespace {

constexpr int kMaxCulprits = 4;
constexpr long kMaxCoverTries = 400000;  // combinations of links tried at most

struct PlacedPair {
  const PairGoodput* p;
  std::string src_leaf, dst_leaf;
  double fraction;  // of the ceiling, or of the best pair
  bool slow;
};

double locate_median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct FabricIndex {
  std::map<std::string, std::string> leaf_of, parent_of;  // host -> leaf, leaf -> switch above
};

// Every link a fault could sit on: each placed host's NIC and each leaf's uplink (both ways, and each
// way alone), and each switch above three leaves or more (with two, it carries the same pairs as
// either uplink, and the uplinks' sentence says the pair figures cannot tell).
std::vector<FabricLink> candidate_links(const std::vector<PlacedPair>& placed, const std::vector<FabricLeaf>& leaves) {
  std::vector<std::string> hosts;  // in the order the pairs name them
  std::unordered_set<std::string> seen;
  for (const auto& q : placed)
    for (const auto* h : {&q.p->src, &q.p->dst})
      if (seen.insert(*h).second) hosts.push_back(*h);
  std::vector<FabricLink> out;
  for (const UplinkWay way : {UplinkWay::both, UplinkWay::up, UplinkWay::down}) {
    for (const auto& h : hosts) out.push_back({LinkKind::nic, h, "", way});
    for (const auto& l : leaves) out.push_back({LinkKind::uplink, l.name, l.parent, way});
  }
  std::map<std::string, int> below;
  for (const auto& l : leaves) ++below[l.parent];
  for (const auto& [sw, n] : below)
    if (n >= 3) out.push_back({LinkKind::spine, sw, "", UplinkWay::both});
  return out;
}

// The placed pairs each link carries (indices into the placed pairs, ascending), gathered in one pass:
// a matrix of 1,024 hosts has a million pairs and some 3,000 candidate links.
class CarriedPairs {
 public:
  CarriedPairs(const std::vector<PlacedPair>& placed, const FabricIndex& fx) {
    for (size_t i = 0; i < placed.size(); ++i) {
      const auto& q = placed[i];
      from_[q.p->src].push_back(i);
      to_[q.p->dst].push_back(i);
      if (q.src_leaf == q.dst_leaf) continue;
      leaving_[q.src_leaf].push_back(i);
      entering_[q.dst_leaf].push_back(i);
      if (const auto& sw = fx.parent_of.at(q.src_leaf); sw == fx.parent_of.at(q.dst_leaf)) across_[sw].push_back(i);
    }
  }

  std::vector<size_t> of(const FabricLink& l) const {
    switch (l.kind) {
      case LinkKind::nic: return ways(from_, to_, l);
      case LinkKind::uplink: return ways(leaving_, entering_, l);
      case LinkKind::spine: return at(across_, l.name);
    }
    return {};
  }

 private:
  using Lists = std::unordered_map<std::string, std::vector<size_t>>;
  Lists from_, to_;            // host -> the pairs it sends, receives
  Lists leaving_, entering_;   // leaf -> the pairs leaving it, entering it
  Lists across_;               // switch -> the pairs between two of its leaves

  static std::vector<size_t> at(const Lists& m, const std::string& key) {
    const auto it = m.find(key);
    return it == m.end() ? std::vector<size_t>{} : it->second;
  }
  // up: the pairs leaving (a NIC: sending), down: entering (receiving), both: either, in order.
  static std::vector<size_t> ways(const Lists& up, const Lists& down, const FabricLink& l) {
    if (l.way == UplinkWay::up) return at(up, l.name);
    if (l.way == UplinkWay::down) return at(down, l.name);
    const auto a = at(up, l.name), b = at(down, l.name);
    std::vector<size_t> out;
    out.reserve(a.size() + b.size());
    std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
  }
};

bool is_fabric(const FabricLink& l) { return l.kind != LinkKind::nic; }

// Links whose measured pairs are all slow (two or more), grouped by that set of pairs; a group whose
// pairs another group's include is dropped (the larger explains as much, on more evidence).
std::vector<LinkCulprit> slow_link_groups(const std::vector<PlacedPair>& placed, const std::vector<FabricLink>& links,
                                          const FabricIndex& fx) {
  const CarriedPairs carried(placed, fx);
  std::map<std::vector<size_t>, std::vector<FabricLink>> groups;
  for (const auto& l : links) {
    auto through = carried.of(l);
    if (through.size() >= 2 && std::all_of(through.begin(), through.end(), [&](size_t i) { return placed[i].slow; }))
      groups[std::move(through)].push_back(l);
  }
  const auto includes = [](const std::vector<size_t>& big, const std::vector<size_t>& small) {
    return big.size() > small.size() && std::includes(big.begin(), big.end(), small.begin(), small.end());
  };
  std::vector<LinkCulprit> out;
  for (const auto& [through, group] : groups) {
    if (std::any_of(groups.begin(), groups.end(), [&](const auto& g) { return includes(g.first, through); })) continue;
    LinkCulprit c;
    c.links = group;
    std::vector<double> g, f;
    for (const size_t i : through) {
      c.pairs.push_back({placed[i].p->src, placed[i].p->dst});
      g.push_back(placed[i].p->gbps);
      f.push_back(placed[i].fraction);
    }
    c.gbps = locate_median(g);
    c.fraction = locate_median(f);
    out.push_back(std::move(c));
  }
  return out;
}

using Mask = std::vector<std::uint64_t>;

struct CoverSearch {
  const std::vector<Mask>& masks;
  Mask goal;
  long tries = 0;
  std::vector<std::vector<size_t>> found;  // covers of the size searched (two are enough to know)

  void search(size_t from, size_t left, std::vector<size_t>& chosen, const Mask& have) {
    if (found.size() >= 2 || tries > kMaxCoverTries) return;
    if (left == 0) {
      ++tries;
      if (have == goal) found.push_back(chosen);
      return;
    }
    for (size_t i = from; i < masks.size(); ++i) {
      Mask next = have;
      for (size_t w = 0; w < next.size(); ++w) next[w] |= masks[i][w];
      chosen.push_back(i);
      search(i + 1, left - 1, chosen, next);
      chosen.pop_back();
    }
  }
};

// The slow pairs that some group carries: those a set of links can explain.
std::set<HostPair> carried_slow(const std::vector<LinkCulprit>& groups) {
  std::set<HostPair> out;
  for (const auto& g : groups) out.insert(g.pairs.begin(), g.pairs.end());
  return out;
}

// The covers of the slow pairs `goal` by the fewest groups: none, one, or two (then it is not decided).
std::vector<std::vector<size_t>> smallest_covers(const std::set<HostPair>& goal, const std::vector<LinkCulprit>& groups) {
  std::map<HostPair, size_t> bit;
  for (const auto& pr : goal) bit.emplace(pr, bit.size());
  const size_t words = (bit.size() + 63) / 64;
  std::vector<Mask> masks;
  for (const auto& g : groups) {
    Mask m(words, 0);
    for (const auto& pr : g.pairs) m[bit.at(pr) / 64] |= std::uint64_t{1} << (bit.at(pr) % 64);
    masks.push_back(m);
  }
  CoverSearch cs{masks, Mask(words, 0), 0, {}};
  for (size_t i = 0; i < bit.size(); ++i) cs.goal[i / 64] |= std::uint64_t{1} << (i % 64);
  // k groups can cover the goal only when the k largest hold as many pairs: half of 1,024 hosts slow
  // make some 500 groups of 2,046 pairs and 785,920 slow pairs, which no 4 groups reach.
  std::vector<size_t> sizes;
  for (const auto& g : groups) sizes.push_back(g.pairs.size());
  std::sort(sizes.rbegin(), sizes.rend());
  size_t largest = 0;
  for (size_t k = 1; k <= kMaxCulprits && k <= groups.size() && cs.found.empty(); ++k) {
    largest += sizes[k - 1];
    if (largest < bit.size()) continue;
    std::vector<size_t> chosen;
    cs.search(0, k, chosen, Mask(words, 0));
  }
  return cs.found;
}

// The leaves whose inside pairs show that a fabric link, not its nodes' NICs, is slow: an uplink's
// leaf, or every leaf below a spine that the pairs reach.
std::vector<std::string> leaves_inside(const FabricLink& l, const std::vector<FabricLeaf>& leaves,
                                       const std::vector<PlacedPair>& placed) {
  std::vector<std::string> out;
  for (const auto& leaf : leaves) {
    const bool reached = std::any_of(placed.begin(), placed.end(),
                                     [&](const PlacedPair& q) { return q.src_leaf == leaf.name || q.dst_leaf == leaf.name; });
    if ((l.kind == LinkKind::uplink && leaf.name == l.name) || (l.kind == LinkKind::spine && leaf.parent == l.name && reached))
      out.push_back(leaf.name);
  }
  return out;
}

std::vector<double> fine_inside(const std::vector<std::string>& inside, const std::vector<PlacedPair>& placed) {
  std::vector<double> v;
  for (const auto& q : placed)
    if (!q.slow && q.src_leaf == q.dst_leaf && std::find(inside.begin(), inside.end(), q.src_leaf) != inside.end())
      v.push_back(q.p->gbps);
  return v;
}

// Why a culprit cannot be named, or "" when it can; fills in its fine pairs inside the leaves.
std::string settle_culprit(LinkCulprit& c, const std::vector<PlacedPair>& placed, const std::vector<FabricLeaf>& leaves) {
  const bool fabric = std::any_of(c.links.begin(), c.links.end(), is_fabric);
  const bool mixed = fabric && !std::all_of(c.links.begin(), c.links.end(), is_fabric);
  if (mixed || (!fabric && c.links.size() > 1)) return "too few pairs to tell: " + link_names(c) + " carry the same measured pairs";
  if (!fabric) return "";
  std::vector<std::string> all;
  for (const auto& l : c.links) {
    const auto inside = leaves_inside(l, leaves, placed);
    for (const auto& leaf : inside)
      if (fine_inside({leaf}, placed).empty())
        return "too few pairs to tell: no pair inside " + leaf + " is measured fine, so its nodes' NICs would explain the pairs of " +
               link_name(l);
    all.insert(all.end(), inside.begin(), inside.end());
  }
  const auto v = fine_inside(all, placed);
  c.within = static_cast<int>(v.size());
  c.within_gbps = locate_median(v);
  return "";
}

}  // namespace

std::string link_names(const LinkCulprit& c) {
  std::string s;
  for (size_t i = 0; i < c.links.size(); ++i) s += (i ? " or " : "") + link_name(c.links[i]);
  return s;
}

std::string link_name(const FabricLink& l) {
  switch (l.kind) {
    case LinkKind::nic:
      return l.name + "'s NIC" + (l.way == UplinkWay::up ? " (sending)" : l.way == UplinkWay::down ? " (receiving)" : "");
    case LinkKind::spine: return "switch " + l.name;
    case LinkKind::uplink: break;
  }
  switch (l.way) {
    case UplinkWay::up: return l.name + " → " + l.parent;
    case UplinkWay::down: return l.parent + " → " + l.name;
    case UplinkWay::both: break;
  }
  return l.name + " ↔ " + l.parent;
}

LinkLocation locate_slow_links(const std::vector<PairGoodput>& pairs, const std::vector<FabricLeaf>& leaves, double fraction) {
  FabricIndex fx;
  for (const auto& l : leaves) {
    fx.parent_of[l.name] = l.parent;
    for (const auto& h : l.hosts) fx.leaf_of[h] = l.name;
  }
  double best = 0;
  for (const auto& p : pairs) best = std::max(best, p.gbps);
  LinkLocation loc;
  std::vector<PlacedPair> placed;
  for (const auto& p : pairs) {
    if (p.src == p.dst || !fx.leaf_of.count(p.src) || !fx.leaf_of.count(p.dst)) continue;
    const double against = p.ceiling_gbps > 0 ? p.ceiling_gbps : best;
    if (against <= 0) continue;
    loc.against_ceiling = loc.against_ceiling || p.ceiling_gbps > 0;
    const double f = p.gbps / against;
    placed.push_back({&p, fx.leaf_of[p.src], fx.leaf_of[p.dst], f, f < fraction});
  }
  loc.fine_worst = 1;
  for (const auto& q : placed) {
    ++(q.slow ? loc.slow : loc.fine);
    if (!q.slow) loc.fine_worst = std::min(loc.fine_worst, q.fraction);
  }
  if (loc.slow == 0) return loc;
  loc.outcome = LocateOutcome::undecided;
  auto groups = slow_link_groups(placed, candidate_links(placed, leaves), fx);
  const auto carried = carried_slow(groups);
  const auto covers = carried.empty() ? std::vector<std::vector<size_t>>{} : smallest_covers(carried, groups);
  if (covers.empty()) {
    loc.why = "no set of " + std::to_string(kMaxCulprits) + " links or fewer carries exactly the " + std::to_string(loc.slow) +
              " slow pairs";
    return loc;
  }
  if (covers.size() > 1) {
    const auto text = [&](const std::vector<size_t>& cover) {
      std::string s;
      for (size_t i = 0; i < cover.size(); ++i) s += (i ? " and " : "") + link_names(groups[cover[i]]);
      return s;
    };
    loc.why = "too few pairs to tell: the slow pairs are explained as well by " + text(covers[0]) + " as by " + text(covers[1]);
    return loc;
  }
  for (const size_t i : covers[0]) {
    LinkCulprit c = groups[i];
    loc.why = settle_culprit(c, placed, leaves);
    if (!loc.why.empty()) {
      loc.culprits.clear();
      return loc;
    }
    loc.culprits.push_back(std::move(c));
  }
  std::stable_partition(loc.culprits.begin(), loc.culprits.end(), [](const LinkCulprit& c) { return is_fabric(c.links[0]); });
  for (const auto& q : placed)
    if (q.slow && !carried.count({q.p->src, q.p->dst})) loc.unexplained.push_back({q.p->src, q.p->dst});
  loc.outcome = LocateOutcome::located;
  return loc;
}

std::set<HostPair> fabric_explained(const LinkLocation& loc) {
  std::set<HostPair> out;
  for (const auto& c : loc.culprits)
    if (is_fabric(c.links[0])) out.insert(c.pairs.begin(), c.pairs.end());
  return out;
}

}  // namespace gpunet::report
