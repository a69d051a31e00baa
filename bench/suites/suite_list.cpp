// Every suite, in default run order. Adding a suite: one line here (bench/README.md).
#include "bench/suites/suite_list.hpp"

#include <vector>

#include "bench/suites/mpi/suite.hpp"
#include "bench/suites/nccl/suite.hpp"
#include "bench/suites/node/suite.hpp"
#include "bench/suites/pcie/suite.hpp"
#include "bench/suites/rdma/suite_entry.hpp"
#include "bench/suites/topo/suite.hpp"
#include "bench/suites/train/suite.hpp"
#include "bench/suites/tcp/suite.hpp"

namespace gpunet::bench {

SuiteList suite_list() {
  static const std::vector<Suite> suites{
      topo_suite(), mpi_suite(), tcp::tcp_suite(), rdma_suite(), nccl_suite(), pcie_suite(), node_suite(), train_suite(),
  };
  return suites;
}

}  // namespace gpunet::bench
