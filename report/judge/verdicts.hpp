// Verdicts: a Report judged against an acceptance Spec. One Verdict per promise: PASS, FAIL or SKIP
// (the run has no data for it), with the measured value, the limit and the reason in words.
//
// What each promise reads (see report/judge/verdicts_facts.hpp for the accepted topology shapes):
//   nic           topology: nics[].name, nics[].speed_Mbps. Per node, the NICs whose name matches
//                 nic.match; with count: at least `count` of them at >= speed_Gbps (when given);
//                 speed alone: every matching NIC at >= speed_Gbps.
//   pcie.gpu/nic  topology: gpus[].pcie / nics[].pcie {gen, width} (current link). Every GPU (every
//                 matching NIC with a PCIe link) at >= gen and >= width. Devices without link data are
//                 left out and counted in the reason.
//   locality      topology: paths[] {gpu, nic, class}. For every GPU, its nearest matching NIC must be
//                 no farther than worst_path.
//   bandwidth[i]  records suite/name[/variant] at `bytes` (default: the largest size measured), status
//                 passed; the worst (lowest) figure over them (default busbw_GBps) against `min`, or
//                 figure.efficiency (a fraction, 1.0 = 100%) x 100 against min_efficiency_pct.
//   latency[i]    same selection at the smallest size by default; the highest figure (default
//                 time_us.p99) against max_p99_us.
//   stability[i]  same selection at the largest size; per record the dip is 1 - min/median of an
//                 extra.timeline_* array of rates when one is present, else 1 - p50/p99 of time_us
//                 (the slowest 1% of iterations against the median); the largest dip against max_dip_pct.
//   homogeneity   topology: per-node signature (GPU count and links, matching NICs' speeds and links);
//                 every node must equal the most common one. figures[i]: per-host value (median over
//                 that host's records, Record::host) within max_spread_pct of the median over hosts.
// A selected record that failed or timed out makes the promise FAIL (the figure was not delivered);
// one that was skipped makes it SKIP with the record's reason.
#pragma once

#include <string>
#include <vector>

#include "common/json.hpp"

#include "report/model/record.hpp"
#include "report/judge/spec.hpp"

namespace gpunet::report {

enum class VerdictStatus { pass, fail, skip, warn };
std::string to_string(VerdictStatus s);  // "PASS", "FAIL", "SKIP", "WARN"

struct Verdict {
  std::string promise;   // "nic", "pcie.gpu", "bandwidth[0] nccl/allreduce 64 MiB busbw_GBps", ...
  VerdictStatus status = VerdictStatus::skip;
  std::string measured;  // with units; "-" when nothing was measured
  std::string limit;     // with units and the comparison, e.g. ">= 180 GB/s"
  std::string reason;    // one sentence
  // For a FAIL: one sentence per place the problem is (a host, a NIC, the uplinks); none when unknown.
  std::vector<std::string> culprits;
  std::vector<std::string> hosts;  // the hosts the failures have in common, else those the culprits name
};

// The culprits in one text, "; " between them ("" when none): report.json's "culprit", junit's message.
std::string culprit_text(const Verdict& v);

void to_json(gpunet::json& j, const Verdict& v);
void from_json(const gpunet::json& j, Verdict& v);

// Judges the report against every promise of the spec, in spec order. Pure.
std::vector<Verdict> evaluate(const Report& report, const Spec& spec);

// The run's verdict: FAIL when any promise failed, else INCOMPLETE when any could not be judged
// (SKIP), else PASS.
std::string overall_verdict(const std::vector<Verdict>& verdicts);

// Exit code of a run in which some promise could not be judged (and none failed).
inline constexpr int kIncompleteExitCode = 4;

// 1 when any verdict is FAIL, else kIncompleteExitCode when any is SKIP, else 0.
int verdict_exit_code(const std::vector<Verdict>& verdicts);

// Stores the table in report.extra["verdicts"] (array of verdict objects) and the spec's identity in
// report.extra["spec"] = {file, name}, so that every renderer can show them.
void attach_verdicts(Report& report, const Spec& spec, const std::vector<Verdict>& verdicts);

// "3 PASS, 1 FAIL, 0 SKIP (not judged: ...)": the line under the verdicts in every format.
std::string verdicts_summary(const std::vector<Verdict>& verdicts);
// The verdicts as aligned plain text (console); report.md and report.html lay them out from
// report/document/acceptance_section.hpp.
std::string render_verdicts_console(const std::vector<Verdict>& verdicts);

}  // namespace gpunet::report
