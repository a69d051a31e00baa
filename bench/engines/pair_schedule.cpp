#include "bench/engines/pair_schedule.hpp"

#include <algorithm>

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

}  // namespace

std::vector<Pair> random_pairs(int n, int k, uint64_t seed) {
  if (n < 2 || k < 1) return {};
  if (k >= n - 1) {
    std::vector<Pair> all;
    for (const auto& round : all_pairs_rounds(n)) all.insert(all.end(), round.begin(), round.end());
    return all;
  }
  SeededDraw draw{seed};
  PairSet set(n);
  for (int ring = 0; ring < (k + 1) / 2; ++ring) {
    const auto v = draw.order(n);
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

std::vector<Round> strategy_rounds(int n, const std::string& strategy, int k, uint64_t seed) {
  if (strategy == "ring") return disjoint_rounds(neighbour_pairs(n));
  if (strategy == "random") return disjoint_rounds(random_pairs(n, k, seed));
  return all_pairs_rounds(n);
}

int pair_count(const std::vector<Round>& rounds) {
  size_t count = 0;
  for (const auto& r : rounds) count += r.size();
  return static_cast<int>(count);
}

}  // namespace gpunet::bench
