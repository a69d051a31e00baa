// What a suite gets to work with. A suite measures and emits Records; it never prints.
#pragma once

#include <functional>

#include <nlohmann/json.hpp>

#include "bench/config.hpp"
#include "bench/control.hpp"
#include "bench/mpi_context.hpp"
#include "bench/runner.hpp"
#include "report/record.hpp"

namespace gpunet::bench {

// Report sections that are not Records; filled on rank 0, written into report.json at the end.
struct ReportSections {
  nlohmann::json topology = nlohmann::json::object();  // host -> topology section (topo suite)
  nlohmann::json findings = nlohmann::json::array();   // {severity, kind, message, subjects, node}
  // The topo suite's findings, for its console block. The report takes them from the topo records'
  // extra.findings, like every suite's, so they are not in `findings` (that would list them twice).
  nlohmann::json topology_findings = nlohmann::json::array();
};

struct SuiteContext {
  const Config& cfg;
  const MpiContext& mpi;
  const Runner& runner;
  ControlPlane& control;
  std::function<void(const report::Record&)> emit;  // any rank; reaches rank 0's results.jsonl
  ReportSections& sections;                          // rank 0 only
  // Progress of a long suite (rank 0 shows it on a terminal, nowhere else): step `done` of `total`.
  std::function<void(const std::string& step, int64_t bytes, int done, int total)> progress =
      [](const std::string&, int64_t, int, int) {};
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

// Node topology: one leader rank per node discovers and analyses it (a record per node carries its
// findings), rank 0 compares the nodes (a record carries those findings) and fills sections.topology
// and sections.topology_findings.
void run_topo_suite(const SuiteContext& ctx);
// Console text for the topo suite's sections: each distinct path matrix once, then the findings.
std::string render_topology_console(const ReportSections& sections);

}  // namespace gpunet::bench
