// How the renderers see a Report: records grouped into size sweeps and single figures, and the
// analysis results (Record::figure->ceiling) read back into a typed view. Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/model/record.hpp"

namespace gpunet::report {

// Views into Record::figure->ceiling: valid while the record lives.
struct CeilingView {
  bool known = false;
  double value = 0;
  std::string_view unit;
  std::string_view derivation;
  std::string_view reason;  // why unknown
  std::optional<double> efficiency;
  std::string_view explanation;
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
// Sweeps of one test that differ only by host and rank form a family. A family of more than
// kFamilyDetailLimit sweeps is shown as one table across ranks plus its slowest sweeps, so a
// 1,000-rank run stays readable (report.json and sweeps.csv keep every record).
inline constexpr size_t kFamilyDetailLimit = 8;
inline constexpr size_t kFamilySlowestShown = 3;
inline constexpr size_t kFindingsShown = 50;

struct SweepFamily {
  std::string title;                      // the common part of its sweeps' titles
  std::vector<const SweepGroup*> groups;  // in report order
};
std::vector<SweepFamily> sweep_families(const std::vector<SweepGroup>& groups);

// One size of a family, across its sweeps: the judged figure's spread and where its minimum is.
struct FamilyRow {
  const Record* first = nullptr;  // a record of this size (count, dtype, op)
  std::string unit;
  size_t n = 0;                   // sweeps with a figure at this size
  double min = 0, median = 0, max = 0;
  const Record* slowest = nullptr;
  std::optional<double> median_efficiency;
  std::optional<CeilingView> ceiling;  // of the slowest record, when known
};
std::vector<FamilyRow> family_rows(const SweepFamily& f);
// The sweeps whose figure at their largest size is lowest, slowest first.
std::vector<const SweepGroup*> family_slowest(const SweepFamily& f, size_t n);

// Records without a size (pairs, latency, checks, skipped suites), in report order.
std::vector<const Record*> point_records(const Report& rep);

// The records whose explanation a reader should see: of each sweep, its best size when even that is
// outside the band; every single figure that has an explanation.
std::vector<const Record*> records_to_explain(const Report& rep);

// The figure a record is judged by, as "0.9412 Gb/s goodput"; empty when it has none.
std::string figure_text(const Record& r);

}  // namespace gpunet::report
