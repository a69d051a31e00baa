#include "bench/rdma/pair_schedule.hpp"

#include <algorithm>

namespace gpunet::bench::rdma {

std::vector<Round> round_robin_rounds(int n) {
  std::vector<Round> rounds;
  if (n < 2) return rounds;
  const int m = n % 2 == 0 ? n : n + 1;  // with an odd count, slot n is the "idle" partner
  std::vector<int> ring(static_cast<size_t>(m - 1));
  for (int i = 0; i < m - 1; ++i) ring[static_cast<size_t>(i)] = i + 1;
  for (int r = 0; r < m - 1; ++r) {
    // Position 0 holds rank 0 in every round; the others turn one step per round.
    std::vector<int> seat{0};
    seat.insert(seat.end(), ring.begin(), ring.end());
    Round round;
    for (int i = 0; i < m / 2; ++i) {
      const int x = seat[static_cast<size_t>(i)], y = seat[static_cast<size_t>(m - 1 - i)];
      if (x < n && y < n) round.push_back({std::min(x, y), std::max(x, y)});
    }
    std::sort(round.begin(), round.end(), [](const RankPair& p, const RankPair& q) { return p.a < q.a; });
    rounds.push_back(round);
    std::rotate(ring.begin(), ring.end() - 1, ring.end());
  }
  return rounds;
}

std::optional<int> partner_in(const Round& round, int rank) {
  for (const auto& p : round) {
    if (p.a == rank) return p.b;
    if (p.b == rank) return p.a;
  }
  return std::nullopt;
}

}  // namespace gpunet::bench::rdma
