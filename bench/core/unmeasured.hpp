// A record must never say `passed` for a figure that was not measured. Each suite says which of its
// records are timed (Suite::unmeasured, one of the rules below); a passed timed record with no samples
// is turned into a failed one with the reason.
#pragma once

#include <string>

#include "report/model/record.hpp"

namespace gpunet::bench {

// The rules a suite picks from: the reason a passed record measured nothing, "" when it measured
// something or is not timed.
//   a collective (named as one: allreduce, ...) with no timed iteration
std::string collective_unmeasured(const report::Record& r);
//   a ping-pong latency (name "latency") with no round trip in time_us or extra.latency_us
std::string pingpong_unmeasured(const report::Record& r);

// r, failed with the rule's reason when it is passed and the rule finds nothing measured; else r.
report::Record fail_if_unmeasured(report::Record r, std::string (*unmeasured)(const report::Record&));

}  // namespace gpunet::bench
