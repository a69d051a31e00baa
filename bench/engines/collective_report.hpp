// What the collective suites (mpi, nccl) tell the report about their records: the kind of each record
// and the tests a spec may name. Both sweep the same collectives, so they describe them alike.
#pragma once

#include <vector>

#include "report/judge/figure_select.hpp"
#include "report/model/record.hpp"

namespace gpunet::bench {

// A point of a size sweep or scaling sweep (bytes > 0), else another record of the suite.
report::RecordKind collective_record_kind(const report::Record& r);
// Every collective, and the scaling sweep; the suite name is filled in from the suite list.
std::vector<report::KnownTest> collective_spec_tests();

}  // namespace gpunet::bench
