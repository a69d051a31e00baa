#include "bench/engines/collective_report.hpp"

#include "report/model/busbw.hpp"

namespace gpunet::bench {

report::RecordKind collective_record_kind(const report::Record& r) {
  return r.bytes > 0 ? report::RecordKind::collective_point : report::RecordKind::collective_other;
}

std::vector<report::KnownTest> collective_spec_tests() {
  std::vector<report::KnownTest> out;
  // Each point's figure is <suite>.<collective>.busbw (report::collective_figure); a scaling step's
  // is the allreduce's.
  for (const std::string test : {"allreduce", "allgather", "reduce_scatter", "broadcast", "reduce", "alltoall", "sendrecv", "scaling"})
    out.push_back({"", test, {}, {}, "", false, {{(test == "scaling" ? "allreduce" : test) + ".busbw", "busbw_GBps"}}});
  return out;
}

}  // namespace gpunet::bench
