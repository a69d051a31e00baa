// The fabric a run was given (--fabric: Report::extra.fabric, written from topology/fabric.hpp) and
// the pair matrix, read for the localisation of report/analysis/uplink_locate.hpp. Defensive: a report without
// a fabric or a matrix reads as empty. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/model/record.hpp"
#include "report/analysis/uplink_locate.hpp"

namespace gpunet::report {

bool has_fabric(const Report& rep);

// The leaves of extra.fabric that have an uplink (a switch above them), with their hosts.
std::vector<FabricLeaf> fabric_leaves(const Report& rep);

// The tcp matrix's directed pairs: the figure re-tested alone where there is one, else the matrix's.
std::vector<PairGoodput> matrix_goodputs(const Report& rep);

// The matrix's suspect fraction (extra.suspect_fraction; 0.8 when absent).
double matrix_slow_fraction(const Report& rep);

// locate_slow_uplink over this report's matrix and fabric.
std::optional<UplinkSuspect> fabric_suspect(const Report& rep);

// Without a fabric, when slow pairs name no single node: what a fabric file would have told.
std::optional<std::string> fabric_unknown_note(const Report& rep);

}  // namespace gpunet::report
