// The judgement's sections: "Acceptance: SPEC" (one row per promise: measured, limit, verdict, reason)
// and "Baseline: FILE" (a row per figure compared, at most kComparisonRowsShown shown, every one in
// baseline.csv), each with its summary line under the table.
// Either is absent when the judgement has none. Pure.
#pragma once

#include <vector>

#include "report/document/document_section.hpp"
#include "report/judge/judgement.hpp"

namespace gpunet::report {

std::vector<DocSection> acceptance_sections(const Report& rep, const Judgement& j);

}  // namespace gpunet::report
