// One console line per rdma record, as the records arrive at rank 0. Pure formatting.
#pragma once

#include <string>

#include "report/model/record.hpp"

namespace gpunet::bench::rdma {

std::string console_line(const report::Record& r);

}  // namespace gpunet::bench::rdma
