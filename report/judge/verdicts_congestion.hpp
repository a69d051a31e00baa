// The spec's congestion promise ("congestion": {"max_cif": 3.0}) judged on the tcp congestion test's
// records (report/analysis/congestion.hpp). Pure.
//   PASS  every victim's CIF, for every measure, is at most max_cif.
//   FAIL  a victim's CIF is above it (each such victim and measure named, with its isolated and
//         congested figures), or a victim's measurement failed.
//   SKIP  the run has no congestion figures (not run, or skipped: fewer than 4 nodes).
#pragma once

#include "report/model/record.hpp"
#include "report/judge/spec.hpp"
#include "report/judge/verdicts.hpp"

namespace gpunet::report {

Verdict judge_congestion(const Report& report, const CongestionPromise& promise);

}  // namespace gpunet::report
