// Slurm hostlist expressions, as topology.conf and srun write them: "node[01-16,20]", "a[1-2]b[3-4]",
// "gpu7,login1". Expansion is bounded: a hostile or mistyped expression ("n[0-999999999]") fails with
// a message instead of filling memory. Pure.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpunet::topo {

// The most names one expression may expand to; a real fabric file names a few thousand nodes.
inline constexpr std::size_t kMaxHostlistNames = 65536;

// The names `expr` stands for, in order (duplicates kept). Zero padding follows the range's lower
// bound, as Slurm does: "n[01-10]" gives n01..n10. Throws std::invalid_argument with one line saying
// what is wrong ("unclosed '['", "range 5-3 runs backwards", "expands to more than 65536 names").
std::vector<std::string> expand_hostlist(const std::string& expr, std::size_t limit = kMaxHostlistNames);

}  // namespace gpunet::topo
