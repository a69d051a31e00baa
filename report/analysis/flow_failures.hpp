// Failed flows as evidence: when every pair record that failed or timed out involves one host, that
// host is the culprit ("9 of 9 flows with it failed from 14 s on (connection timed out): its data link
// went down?"). Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/model/record.hpp"

namespace gpunet::report {

// One pair record (extra.src_host and extra.dst_host): how it ended and when its test began.
struct FlowOutcome {
  std::string src, dst;
  Status status = Status::passed;
  std::optional<double> started_s;  // extra.started_s: seconds into its suite
  std::string reason;
  bool moved_data = false;          // bytes arrived (or were sent) before it ended
};

// The pair records of a report, skipped ones and findings left out.
std::vector<FlowOutcome> flow_outcomes(const Report& rep);

struct HostFailure {
  std::string host;
  int failed = 0;                // flows with it that failed or timed out
  int with_host = 0;             // flows with it from the first failure on (all, when times are unknown)
  std::optional<double> from_s;  // when the first of them began
  std::string cause;             // the first failure's own words, e.g. "connection timed out"
  bool ran_before = false;       // the link worked first: a flow with it passed before the first failure,
                                 // or a failed one had moved data
};

// The host every failed flow involves, when there is exactly one such host; else nothing.
std::optional<HostFailure> one_host_failing(const std::vector<FlowOutcome>& flows);
// The same of a report's flows, gathered only when some record failed or timed out (a million passed
// flows at 1,024 hosts have none to look at).
std::optional<HostFailure> one_host_failing(const Report& rep);

// "9 of 9 flows with it failed from 14 s on (connection timed out): its data link went down?"
std::string failure_sentence(const HostFailure& f);

}  // namespace gpunet::report
