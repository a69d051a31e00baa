// Reading files of schema version 1 (before records carried a typed figure): the one place that
// turns what such records kept in `extra` (goodput_Gbps, bw_Gbps, src_host/dst_host, ...) and in
// their names into today's figures. Nothing else reads those keys to find what a record measured.
#pragma once

#include <optional>

#include "report/model/figure.hpp"
#include "report/model/record.hpp"

namespace gpunet::report {

// The figure a version-1 record measured, as today's suites set it; empty for records that measured
// nothing (skipped, setup, devices, topology, findings, matrices).
std::optional<Figure> legacy_figure(const Record& r);

// Gives every record of a version-1 report its figure (with the ceiling and efficiency the report
// stored, until it is analysed again), drops the ceiling keys the old version wrote into `extra` and
// raises schema_version.
void upgrade_legacy_report(Report& rep);

}  // namespace gpunet::report
