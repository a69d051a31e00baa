// The congestion test's records (pure): per victim and measure the CIF with its isolated and congested
// figures, then per measure the overall CIF (the mean over the victims, the worst victim beside it).
// The CIF arithmetic and the record layout are report/analysis/congestion.hpp's.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "bench/suites/tcp/congestion_plan.hpp"
#include "bench/suites/tcp/records.hpp"

namespace gpunet::bench::tcp {

// One measure of one victim: the figure alone and under congestion.
struct MeasuredPair {
  double isolated = 0, congested = 0;
  report::Status status = report::Status::passed;
  std::string reason;  // why it was not measured (status not passed)
};

struct VictimFigures {
  FlowSpec victim;                              // bandwidth src -> dst; the ping-pong's client is dst
  std::map<std::string, MeasuredPair> measures; // by report::CongestionMeasure::key
};

// What the congestors did, stated in every record.
struct CongestionLoad {
  int congestors = 0;
  int incast_flows = 0;
  int all_to_all_flows = 0;
  int failed_flows = 0;       // congestor flows of the congested bandwidth step that did not pass
  double time_s = 0;          // --tcp-time: each bandwidth step, and the congestors' flows
  double latency_s = 0;       // the ping-pong's seconds, alone and congested alike
};

std::vector<report::Record> congestion_records(const std::vector<VictimFigures>& victims, const std::vector<Node>& nodes,
                                               const CongestionLoad& load);

}  // namespace gpunet::bench::tcp
