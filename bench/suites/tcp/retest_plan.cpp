#include "bench/suites/tcp/retest_plan.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "bench/engines/pair_schedule.hpp"

namespace gpunet::bench::tcp {

namespace {

// What the matrix said about each participant's ends.
struct EndFacts {
  std::vector<bool> sent_ok, received_ok, slow_sending, slow_receiving;
  std::vector<std::set<int>> met;  // partners measured with, either way
  explicit EndFacts(int n)
      : sent_ok(static_cast<size_t>(n)), received_ok(static_cast<size_t>(n)), slow_sending(static_cast<size_t>(n)),
        slow_receiving(static_cast<size_t>(n)), met(static_cast<size_t>(n)) {}
};

EndFacts end_facts(int n, const std::vector<FlowSpec>& suspects, const std::vector<FlowSpec>& passed) {
  EndFacts e(n);
  for (const auto& f : passed) {
    e.sent_ok[static_cast<size_t>(f.src)] = e.received_ok[static_cast<size_t>(f.dst)] = true;
    e.met[static_cast<size_t>(f.src)].insert(f.dst);
    e.met[static_cast<size_t>(f.dst)].insert(f.src);
  }
  for (const auto& f : suspects) {
    e.slow_sending[static_cast<size_t>(f.src)] = e.slow_receiving[static_cast<size_t>(f.dst)] = true;
    e.met[static_cast<size_t>(f.src)].insert(f.dst);
    e.met[static_cast<size_t>(f.dst)].insert(f.src);
  }
  return e;
}

// A partner for `end` among those whose side of the flow passed and never was slow, that `end` did not
// meet in the matrix: the least used so far (the sending and the receiving side of one end then get two
// different partners where there are two), then the lowest index; -1 when there is none.
int passed_partner(int n, int end, const std::vector<bool>& ok, const std::vector<bool>& slow, const std::set<int>& met,
                   const std::vector<int>& used) {
  int best = -1;
  for (int g = 0; g < n; ++g) {
    const auto i = static_cast<size_t>(g);
    if (g == end || !ok[i] || slow[i] || met.count(g)) continue;
    if (best < 0 || used[i] < used[static_cast<size_t>(best)]) best = g;
  }
  return best;
}

}  // namespace

RetestPlan plan_retests(int n, const std::vector<FlowSpec>& suspects, const std::vector<FlowSpec>& passed, int max_rounds) {
  RetestPlan plan;
  EndFacts e = end_facts(n, suspects, passed);
  std::vector<FlowSpec> wanted;
  auto want = [&](const FlowSpec& f) {
    if (std::find(wanted.begin(), wanted.end(), f) == wanted.end()) wanted.push_back(f);
  };
  std::vector<int> used(static_cast<size_t>(n));
  std::set<int> sender_done, receiver_done;
  for (const auto& f : suspects) {
    want(f);
    const auto s = static_cast<size_t>(f.src), d = static_cast<size_t>(f.dst);
    if (!e.sent_ok[s] && sender_done.insert(f.src).second) {
      const int g = passed_partner(n, f.src, e.received_ok, e.slow_receiving, e.met[s], used);
      if (g >= 0) {
        ++used[static_cast<size_t>(g)];
        plan.against_passed.push_back({f.src, g});
        want(plan.against_passed.back());
      }
    }
    if (!e.received_ok[d] && receiver_done.insert(f.dst).second) {
      const int g = passed_partner(n, f.dst, e.sent_ok, e.slow_sending, e.met[d], used);
      if (g >= 0) {
        ++used[static_cast<size_t>(g)];
        plan.against_passed.push_back({g, f.dst});
        want(plan.against_passed.back());
      }
    }
  }
  // The pairs, each participant's first pairs before anyone's second, so that a cap on rounds cuts
  // the repeats of a busy participant rather than anyone's only re-test.
  std::map<std::pair<int, int>, std::vector<FlowSpec>> directions;
  std::vector<std::pair<int, Pair>> ordered;  // (how many earlier pairs share an end, pair)
  std::vector<int> seen(static_cast<size_t>(n));
  for (const auto& f : wanted) {
    const Pair p{std::min(f.src, f.dst), std::max(f.src, f.dst)};
    auto& dirs = directions[{p.a, p.b}];
    if (dirs.empty()) {
      ordered.push_back({std::max(seen[static_cast<size_t>(p.a)], seen[static_cast<size_t>(p.b)]), p});
      ++seen[static_cast<size_t>(p.a)];
      ++seen[static_cast<size_t>(p.b)];
    }
    dirs.push_back(f);
  }
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<Pair> pairs;
  for (const auto& o : ordered) pairs.push_back(o.second);
  const auto rounds = disjoint_rounds(pairs);
  for (size_t r = 0; r < rounds.size(); ++r) {
    std::vector<FlowSpec> flows;
    for (const auto& p : rounds[r])
      for (const auto& f : directions[{p.a, p.b}]) flows.push_back(f);
    if (static_cast<int>(r) < max_rounds)
      plan.rounds.push_back(flows);
    else
      plan.left_out.insert(plan.left_out.end(), flows.begin(), flows.end());
  }
  return plan;
}

}  // namespace gpunet::bench::tcp
