#include "report/judge/scheduler_lines.hpp"

#include <algorithm>
#include <cctype>


namespace gpunet::report {

namespace {

bool plain_node_name(const std::string& host) {
  return !host.empty() && host.size() <= 255 && host.front() != '-' &&
         std::all_of(host.begin(), host.end(), [](unsigned char c) { return std::isalnum(c) || c == '.' || c == '-' || c == '_'; });
}

// A reason Slurm keeps and a shell reads inside single quotes: printable ASCII without quotes or
// backslashes, at most 120 characters.
std::string slurm_reason(const std::string& reason) {
  std::string out = "gpunet-bench: ";
  for (const unsigned char c : reason) {
    if (out.size() >= 120) break;
    out += (c >= 0x20 && c < 0x7f && c != '\'' && c != '"' && c != '\\') ? static_cast<char>(c) : ' ';
  }
  if (reason.size() + 14 > out.size()) out += "...";
  return out;
}

// One line of bad-nodes.txt: no tab or line break inside a field.
std::string one_line(std::string s) {
  std::replace_if(s.begin(), s.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
  return s;
}

}  // namespace

std::string bad_nodes_text(const std::vector<BadNode>& nodes) {
  std::string out;
  for (const auto& n : nodes) out += one_line(n.host) + "\t" + one_line(n.reason) + "\n";
  return out;
}

std::string slurm_lines(const std::vector<BadNode>& nodes) {
  std::string drain, exclude;
  for (const auto& n : nodes) {
    if (!plain_node_name(n.host)) continue;
    drain += "scontrol update NodeName=" + n.host + " State=DRAIN Reason='" + slurm_reason(n.reason) + "'\n";
    exclude += (exclude.empty() ? "" : ",") + n.host;
  }
  if (drain.empty()) return "";
  return drain + "# or leave them out of a job: srun/sbatch --exclude=" + exclude + "\n";
}

}  // namespace gpunet::report
