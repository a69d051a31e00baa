// One console line per tcp record, as the records arrive at rank 0. Pure formatting; a flow's
// ceiling and efficiency are the analysed figure's (report::attach_ceiling), as in every report.
#pragma once

#include <string>

#include "report/model/record.hpp"

namespace gpunet::bench::tcp {

std::string console_line(const report::Record& r);

}  // namespace gpunet::bench::tcp
