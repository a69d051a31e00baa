// The matrix's second pass (pure): which suspect directions are re-tested, against whom, and in which
// rounds. Each suspect direction is re-tested with its own partner; an end that passed with no partner
// (it only ever sent slowly, or only ever received slowly) is also re-tested against a partner that
// passed and that it has not met yet, so that a node named slow has evidence from more than one partner.
// Disjoint pairs run in the same round (at most n/2 pairs a round), and there are at most max_rounds
// rounds: what did not fit is listed, not re-tested.
#pragma once

#include <vector>

#include "bench/suites/tcp/records.hpp"

namespace gpunet::bench::tcp {

struct RetestPlan {
  std::vector<std::vector<FlowSpec>> rounds;  // each round's directions; no participant in two pairs of a round
  std::vector<FlowSpec> against_passed;       // the directions that pair a suspect end with a partner that passed
  std::vector<FlowSpec> left_out;             // wanted, but past max_rounds: not re-tested
};

// `suspects`: the slow directions of the matrix; `passed`: its directions that were not slow.
RetestPlan plan_retests(int n, const std::vector<FlowSpec>& suspects, const std::vector<FlowSpec>& passed, int max_rounds);

}  // namespace gpunet::bench::tcp
