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
  std::vector<Round> rounds;
  for (const auto& p : pairs) {
    auto busy = [&](const Round& r) {
      return std::any_of(r.begin(), r.end(), [&](const Pair& q) { return q.a == p.a || q.a == p.b || q.b == p.a || q.b == p.b; });
    };
    auto it = std::find_if(rounds.begin(), rounds.end(), [&](const Round& r) { return !busy(r); });
    if (it == rounds.end())
      rounds.push_back({p});
    else
      it->push_back(p);
  }
  return rounds;
}

}  // namespace gpunet::bench
