// The tcp suite's live console lines, pure formatting: one line per interval of a running flow, as
// iperf3 prints them (time range, transfer, bitrate, retransmits, congestion window) plus a dip
// mark, and iperf3-like final sender and receiver lines of a finished flow. Units are SI: MB =
// 1e6 bytes, Gb/s = 1e9 bit/s.
//
//   # tcp [ ID]                     Interval           Transfer      Bitrate    Retr        Cwnd
//   # tcp [node0 -> node1]       1.00-2.00    s      119.185 MB   0.953 Gb/s       0    386.0 KB
//   # tcp [node0 -> node1]       2.00-3.00    s       61.012 MB   0.488 Gb/s      14    112.4 KB  dip
//   # tcp [node0 -> node1]       0.00-3.00    s      300.000 MB   0.800 Gb/s      14              sender
//   # tcp [node0 -> node1]       0.00-3.01    s      300.000 MB   0.797 Gb/s                  receiver
#pragma once

#include <string>
#include <vector>

#include "bench/suites/tcp/bandwidth.hpp"
#include "report/model/record.hpp"

namespace gpunet::bench::tcp {

// "node0 -> node1", or with ranks when both ends share a host: "host:0 -> host:1".
std::string flow_label(const std::string& src_host, int src_rank, const std::string& dst_host, int dst_rank);

std::string interval_header();
std::string interval_line(const std::string& label, const IntervalReport& r, bool dip);
// The final sender and receiver lines of a bandwidth record ("" for other records).
std::string final_lines(const report::Record& r);

// Whether each interval of one flow is a dip as the suite defines dips (below `dip` × the flow's
// median rate), judged live against the median of the flow's intervals so far, so the first is never
// one. The record's stability summary judges the whole flow's 0.1 s timeline afterwards.
class LiveDips {
 public:
  explicit LiveDips(double dip) : dip_(dip) {}
  bool add(double gbps);  // true when this interval is a dip

 private:
  double dip_;
  std::vector<double> so_far_;
};

}  // namespace gpunet::bench::tcp
