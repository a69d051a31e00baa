// What a scheduler needs from "What is wrong": bad-nodes.txt (one blamed host per line, a tab, the
// reason; empty when none) and, in report.md and report.html, ready-to-run Slurm lines: one
// `scontrol update ... State=DRAIN` per host and an `--exclude=` list. gpunet-bench drains nothing
// itself. Pure.
#pragma once

#include <string>
#include <vector>

#include "report/judge/culprits.hpp"

namespace gpunet::report {

std::string bad_nodes_text(const std::vector<BadNode>& nodes);

// The Slurm lines as plain shell text; "" when no host is blamed. A host name that is not a plain
// node name (letters, digits, '.', '-', '_') gets no line: it is listed in bad-nodes.txt only.
std::string slurm_lines(const std::vector<BadNode>& nodes);

}  // namespace gpunet::report
