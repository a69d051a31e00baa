// What a suite gets to work with. A suite measures and emits Records; it never prints.
#pragma once

#include <functional>

#include "bench/config.hpp"
#include "bench/control.hpp"
#include "bench/mpi_context.hpp"
#include "bench/runner.hpp"
#include "report/record.hpp"

namespace gpunet::bench {

struct SuiteContext {
  const Config& cfg;
  const MpiContext& mpi;
  const Runner& runner;
  ControlPlane& control;
  std::function<void(const report::Record&)> emit;  // any rank; reaches rank 0's results.jsonl
  // Fills suite, host, rank and ranks of a new record.
  report::Record record(const std::string& suite, const std::string& name) const {
    report::Record r;
    r.suite = suite;
    r.name = name;
    r.host = mpi.host;
    r.rank = mpi.rank;
    r.ranks = mpi.size;
    return r;
  }
};

// Host-memory MPI collectives: allreduce, allgather, reduce_scatter, broadcast, alltoall.
void run_mpi_suite(const SuiteContext& ctx);
// RDMA WRITE bandwidth and latency between rank pairs over libibverbs (bench/rdma, suites/rdma.cpp).
void run_rdma_suite(const SuiteContext& ctx);

}  // namespace gpunet::bench
