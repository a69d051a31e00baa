// Suites beyond the core `mpi` one: NCCL collectives, PCIe copies, node-local micro-benchmarks, and
// the scaling sweep of the mpi suite. Each measures and emits Records; none prints.
#pragma once

#include "bench/suite.hpp"

namespace gpunet::bench {

// The mpi suite, then (with --scaling) its scaling sweep: MPI_Allreduce on 1, 2, 4, ... whole nodes.
void run_mpi_suite_with_scaling(const SuiteContext& ctx);
void run_mpi_scaling(const SuiteContext& ctx);

// NCCL collectives, one GPU per rank (skipped with the reason where no GPU can be used).
void run_nccl_suite(const SuiteContext& ctx);

// Host<->device copies per GPU and all GPUs of a node at once (node leaders; skipped without a GPU).
void run_pcie_suite(const SuiteContext& ctx);

// Node-local micro-benchmarks with Google Benchmark: host memory bandwidth per NUMA node, and PCIe
// copies where a GPU is present (node leaders).
void run_node_suite(const SuiteContext& ctx);

}  // namespace gpunet::bench
