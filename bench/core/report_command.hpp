// `gpunet-bench report FILE`: a stored run rendered again, or judged again (spec, baseline, fabric,
// history), then its evidence bundle. The output directory is this command's while it writes, as a
// run's is: a second run or re-render into the same -o is refused, naming the owner.
#pragma once

#include <iostream>

#include "bench/core/config.hpp"

namespace gpunet::bench {

// The verdict's exit code (0 PASS, 1 FAIL, 4 INCOMPLETE), or 2 for unusable input or a held -o.
int report_command(const Config& cfg, std::ostream& out, std::ostream& err);

}  // namespace gpunet::bench
