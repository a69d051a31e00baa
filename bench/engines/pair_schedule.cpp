#include "bench/engines/pair_schedule.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace gpunet::bench {

std::vector<Round> all_pairs_rounds(int n) {
  std::vector<Round> rounds;
  if (n < 2) return rounds;
  const int m = n % 2 == 0 ? n : n + 1;  // an odd count gets a "bye" slot, m − 1 = n
  std::vector<int> ring(static_cast<size_t>(m));
  for (int i = 0; i < m; ++i) ring[static_cast<size_t>(i)] = i;
  for (int r = 0; r < m - 1; ++r) {
    Round round;
    for (int i = 0; i < m / 2; ++i) {
      const int x = ring[static_cast<size_t>(i)], y = ring[static_cast<size_t>(m - 1 - i)];
      if (x < n && y < n) round.push_back({std::min(x, y), std::max(x, y)});
    }
    rounds.push_back(round);
    // Keep position 0 fixed and turn the others by one.
    std::rotate(ring.begin() + 1, ring.end() - 1, ring.end());
  }
  return rounds;
}

std::vector<Pair> neighbour_pairs(int n) {
  std::vector<Pair> pairs;
  if (n < 2) return pairs;
  if (n == 2) return {{0, 1}};
  for (int i = 0; i < n; ++i) pairs.push_back({i, (i + 1) % n});
  return pairs;
}

std::vector<Round> disjoint_rounds(const std::vector<Pair>& pairs) {
  // Each pair goes into the first round where neither end is busy. Who is busy in each round is kept
  // beside it, so that a pair costs one look per round, not a scan of the round's pairs (4096 nodes
  // with 64 random partners each: 2.5 s of CPU before).
  int nodes = 0;
  for (const auto& p : pairs) nodes = std::max({nodes, p.a + 1, p.b + 1});
  std::vector<Round> rounds;
  std::vector<std::vector<bool>> busy;
  for (const auto& p : pairs) {
    size_t r = 0;
    while (r < rounds.size() && (busy[r][static_cast<size_t>(p.a)] || busy[r][static_cast<size_t>(p.b)])) ++r;
    if (r == rounds.size()) {
      rounds.emplace_back();
      busy.emplace_back(static_cast<size_t>(nodes), false);
    }
    rounds[r].push_back(p);
    busy[r][static_cast<size_t>(p.a)] = busy[r][static_cast<size_t>(p.b)] = true;
  }
  return rounds;
}

}  // namespace gpunet::bench

namespace gpunet::bench {

namespace {

// splitmix64: a fixed generator, so a seed picks the same pairs with every compiler and library.
struct SeededDraw {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // A random order of 0..n−1 (Fisher–Yates).
  std::vector<int> order(int n) {
    std::vector<int> v(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i;
    for (int i = n - 1; i > 0; --i) std::swap(v[static_cast<size_t>(i)], v[static_cast<size_t>(next() % static_cast<uint64_t>(i + 1))]);
    return v;
  }
};

struct PairSet {
  int n;
  std::vector<Pair> pairs;
  std::vector<int> degree;
  std::vector<std::vector<bool>> has;
  explicit PairSet(int count)
      : n(count), degree(static_cast<size_t>(count)), has(static_cast<size_t>(count), std::vector<bool>(static_cast<size_t>(count))) {}
  void add(int x, int y) {
    if (x == y || has[static_cast<size_t>(x)][static_cast<size_t>(y)]) return;
    has[static_cast<size_t>(x)][static_cast<size_t>(y)] = has[static_cast<size_t>(y)][static_cast<size_t>(x)] = true;
    ++degree[static_cast<size_t>(x)];
    ++degree[static_cast<size_t>(y)];
    pairs.push_back({std::min(x, y), std::max(x, y)});
  }
  int least() const { return *std::min_element(degree.begin(), degree.end()); }
};

// Whether x and y are known to sit in one group (group < 0: not known, beside anyone).
bool same_group(const std::vector<int>& group, int x, int y) {
  if (group.empty()) return false;
  const int g = group[static_cast<size_t>(x)];
  return g >= 0 && g == group[static_cast<size_t>(y)];
}

// The random order v reordered so that neighbours sit in different groups wherever the groups' sizes
// allow: each next node is the first one left, in v's order, outside the previous node's group, or from
// the largest group left when that group would otherwise have to sit beside itself.
std::vector<int> crossing_order(std::vector<int> v, const std::vector<int>& group) {
  const int groups = *std::max_element(group.begin(), group.end()) + 1;
  std::vector<int> left(static_cast<size_t>(std::max(groups, 1)));
  for (const int g : group)
    if (g >= 0) ++left[static_cast<size_t>(g)];
  const size_t n = v.size();
  for (size_t i = 0; i < n; ++i) {
    const int largest = static_cast<int>(std::max_element(left.begin(), left.end()) - left.begin());
    const bool forced = 2 * static_cast<size_t>(left[static_cast<size_t>(largest)]) > n - i;
    const auto fits = [&](int x) {
      if (forced) return group[static_cast<size_t>(x)] == largest;
      return i == 0 || !same_group(group, v[i - 1], x);
    };
    size_t j = i;
    while (j < n && !fits(v[j])) ++j;
    if (j < n) std::swap(v[i], v[j]);
    if (const int g = group[static_cast<size_t>(v[i])]; g >= 0) --left[static_cast<size_t>(g)];
  }
  return v;
}

// A ring whose every other edge crosses two groups and whose other edges stay inside one, wherever the
// groups allow: the pairs (v[0], v[1]), (v[2], v[3]), ... of crossing_order(v) are chained, each turned
// around when that helps, so that a pair's second node shares a group with the next pair's first (the
// first pair left in order that fits, else the first left). An odd node out stays last; the ring's
// first node is its partner. No draws: the same v and groups give the same ring on every machine.
std::vector<int> across_and_within_ring(const std::vector<int>& v, const std::vector<int>& group) {
  const auto crossing = crossing_order(v, group);
  std::vector<std::pair<int, int>> left;
  for (size_t i = 0; i + 1 < crossing.size(); i += 2) left.push_back({crossing[i], crossing[i + 1]});
  // The odd node out is matched with the ring's first node: the first pair is turned to cross to it.
  const bool odd = crossing.size() % 2 == 1;
  std::vector<int> ring;
  while (!left.empty()) {
    size_t j = 0;
    bool turn = ring.empty() && odd && same_group(group, crossing.back(), left[0].first);
    for (size_t c = 0; !ring.empty() && c < left.size(); ++c) {
      if (same_group(group, ring.back(), left[c].first)) { j = c; break; }
      if (same_group(group, ring.back(), left[c].second)) {
        j = c;
        turn = true;
        break;
      }
    }
    const auto [x, y] = left[j];
    ring.push_back(turn ? y : x);
    ring.push_back(turn ? x : y);
    left.erase(left.begin() + static_cast<std::ptrdiff_t>(j));
  }
  if (odd) ring.push_back(crossing.back());
  return ring;
}

// How many rings to draw by group: one edge in two inside a group is new while the group holds
// partners not yet met, so (mean group size − 1) / 2 rings, at least one; none when most nodes are alone
// in their group (each such ring also costs a pass over the groups for each node).
int rings_by_group(const std::vector<int>& group) {
  if (group.empty()) return 0;
  std::vector<int> known;
  for (const int g : group)
    if (g >= 0) known.push_back(g);
  std::sort(known.begin(), known.end());
  const auto groups = std::unique(known.begin(), known.end()) - known.begin();
  const auto mean = static_cast<long>(known.size()) / std::max<long>(1, groups);
  return mean < 2 ? 0 : std::max<int>(1, static_cast<int>((mean - 1) / 2));
}

}  // namespace

std::vector<Pair> random_pairs(int n, int k, uint64_t seed, const std::vector<int>& groups) {
  if (n < 2 || k < 1) return {};
  if (k >= n - 1) {
    std::vector<Pair> all;
    for (const auto& round : all_pairs_rounds(n)) all.insert(all.end(), round.begin(), round.end());
    return all;
  }
  const std::vector<int> group = static_cast<int>(groups.size()) == n && names_two_groups(groups) ? groups : std::vector<int>{};
  const int by_group = rings_by_group(group);
  SeededDraw draw{seed};
  PairSet set(n);
  for (int ring = 0; ring < (k + 1) / 2; ++ring) {
    const auto v = ring < by_group ? across_and_within_ring(draw.order(n), group) : draw.order(n);
    const auto at = [&](int i) { return v[static_cast<size_t>(i % n)]; };
    const bool matching_only = k % 2 == 1 && ring == k / 2;
    // Every other edge of the ring first (a matching), so that the rounds pack well.
    for (int i = 0; i + 1 < n; i += 2) set.add(at(i), at(i + 1));
    if (n % 2 == 1) set.add(at(n - 1), at(0));
    if (!matching_only)
      for (int i = 1; i < n; i += 2) set.add(at(i), at(i + 1));
  }
  // Whoever the repeats left short: more partners, in a random order.
  for (int x = 0; x < n; ++x)
    for (int y : draw.order(n)) {
      if (set.degree[static_cast<size_t>(x)] >= k) break;
      set.add(x, y);
    }
  return set.pairs;
}

std::vector<Round> strategy_rounds(int n, const std::string& strategy, int k, uint64_t seed, const std::vector<int>& groups) {
  if (strategy == "ring") return disjoint_rounds(neighbour_pairs(n));
  if (strategy == "random") return disjoint_rounds(random_pairs(n, k, seed, groups));
  return all_pairs_rounds(n);
}

bool names_two_groups(const std::vector<int>& groups) {
  const auto known = std::find_if(groups.begin(), groups.end(), [](int g) { return g >= 0; });
  return std::any_of(known, groups.end(), [&](int g) { return g >= 0 && g != *known; });
}

int pairs_between_groups(const std::vector<Round>& rounds, const std::vector<int>& groups) {
  int between = 0;
  for (const auto& round : rounds)
    for (const auto& p : round) {
      const int a = groups[static_cast<size_t>(p.a)], b = groups[static_cast<size_t>(p.b)];
      between += a >= 0 && b >= 0 && a != b;
    }
  return between;
}

int pair_count(const std::vector<Round>& rounds) {
  size_t count = 0;
  for (const auto& r : rounds) count += r.size();
  return static_cast<int>(count);
}

}  // namespace gpunet::bench
