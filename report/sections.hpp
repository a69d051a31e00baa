// How the renderers see a Report: records grouped into size sweeps and single figures, and the
// analysis results (Record::extra.ceiling) read back into a typed view. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/record.hpp"

namespace gpunet::report {

struct CeilingView {
  bool known = false;
  double value = 0;
  std::string unit;
  std::string derivation;
  std::string reason;  // why unknown
  std::optional<double> efficiency;
  std::string explanation;
};
CeilingView ceiling_view(const Record& r);  // all empty when the record was not analysed

// A size sweep: records that share suite, name, variant, dtype, op, ranks, host and rank, by size.
struct SweepGroup {
  std::string suite, name, variant, dtype, op, host;
  int ranks = 0;
  int rank = 0;
  std::vector<const Record*> rows;  // ascending bytes
  std::string title() const;        // "mpi allreduce (out-of-place), float sum, 4 ranks"
};

// Records with bytes > 0 grouped into sweeps, in order of first appearance.
std::vector<SweepGroup> sweep_groups(const Report& rep);
// Records without a size (pairs, latency, checks, skipped suites), in report order.
std::vector<const Record*> point_records(const Report& rep);

// The records whose explanation a reader should see: of each sweep, its best size when even that is
// outside the band; every single figure that has an explanation.
std::vector<const Record*> records_to_explain(const Report& rep);

// The figure a record is judged by, as "0.9412 Gb/s goodput"; empty when it has none.
std::string figure_text(const Record& r);

}  // namespace gpunet::report
