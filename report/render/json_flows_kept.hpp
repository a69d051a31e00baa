// report.json at scale. A matrix of N hosts has N(N-1) TCP flows: at 1,024 hosts, a million records
// and 2 GB of report.json, which no reader can hold (and which this program would refuse to read back,
// common/input_file.hpp). Above kWholeFlowsUpTo flows, report.json keeps whole only the flows a reader
// must see: those that failed or carry no figure, those below the efficiency threshold, and those
// with an end that "What is wrong" or a failed promise names, the pair of a SLOWER baseline figure,
// or a direction a finding names slow. Every host's flows are summarised instead, sent and received, per
// interface (extra.flows_in_part, kFlowsInPartKey). Every flow stays in results.jsonl and tcp_flows.csv. Pure.
#pragma once

#include <cstddef>
#include <vector>

#include "common/json.hpp"

#include "report/model/record.hpp"
#include "report/render/document_parts.hpp"

namespace gpunet::report {

inline constexpr std::size_t kWholeFlowsUpTo = 16384;  // a full matrix of 128 hosts is 16,256 flows
// Of those a reader must see, report.json keeps at most this many whole beside the failed ones: half of
// 1,024 hosts slow puts 785,920 flows below the threshold, 2.1 GB of report.json (more than it may be
// read back). The cited pairs go first, then the named hosts' flows, then the others below the
// threshold, each the least efficient first; the summary says how many were left to it.
inline constexpr std::size_t kMostWholeFlows = 16384;

struct FlowsKept {
  std::vector<bool> whole;  // by index of Report::results; empty: every record is kept whole
  gpunet::json summary;   // extra.flows_in_part; null when every record is kept whole
};

// What report.json keeps of `rep`'s TCP flows; `parts` are rep's (document_parts), whose blamed pairs
// and cited hosts it keeps whole. A report read back from a report.json that was already
// written in part keeps its summary (the flows it summarised are no longer in it).
FlowsKept flows_kept(const Report& rep, const DocumentParts& parts, std::size_t whole_up_to = kWholeFlowsUpTo,
                     std::size_t most_whole = kMostWholeFlows);

}  // namespace gpunet::report
