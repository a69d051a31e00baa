#include "bench/app.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include "bench/control.hpp"
#include "bench/rdma/console.hpp"
#include "bench/mpi_context.hpp"
#include "bench/results_sink.hpp"
#include "bench/runner.hpp"
#include "bench/suite.hpp"
#include "bench/tcp/console.hpp"  // tcp suite (issue #4)
#include "bench/tcp/suite.hpp"    // tcp suite (issue #4)
#include "bench/versions.hpp"
#include "gpunet/build_config.h"
#include "report/console.hpp"

namespace gpunet::bench {

namespace {

using SuiteFn = void (*)(const SuiteContext&);

const std::map<std::string, SuiteFn>& suite_registry() {
  static const std::map<std::string, SuiteFn> suites{
      {"mpi", &run_mpi_suite},
      {"tcp", &tcp::run_tcp_suite},  // tcp suite (issue #4)
      {"rdma", &run_rdma_suite},
  };
  return suites;
}

// Rank 0 prepares the output directory; every rank learns whether that worked.
std::unique_ptr<ResultsSink> open_sink(const Config& cfg, const MpiContext& mpi) {
  std::unique_ptr<ResultsSink> sink;
  int ok = 1;
  if (mpi.is_root()) {
    try {
      std::filesystem::create_directories(cfg.output_dir);
      sink = std::make_unique<ResultsSink>(cfg.output_dir + "/results.jsonl");
    } catch (const std::exception& e) {
      std::cerr << "gpunet-bench: error: cannot use output directory '" << cfg.output_dir << "': " << e.what()
                << " (choose another with -o DIR)\n";
      ok = 0;
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, mpi.world);
  if (!ok) throw std::invalid_argument("output directory");
  return sink;
}

report::Provenance provenance(const Config& cfg, const MpiContext& mpi, const std::string& start) {
  report::Provenance p;
  p.argv = cfg.argv;
  p.hosts = mpi.hosts;
  p.ranks_per_node = mpi.ranks_per_node;
  p.reduction = to_string(cfg.reduction);
  p.version = GPUNET_VERSION;
  p.git_commit = GPUNET_GIT_COMMIT;
  p.mpi_version = mpi.mpi_library_version;
  p.hwloc_version = hwloc_version();
  p.cuda_version = cuda_runtime_version();
  p.nccl_version = nccl_version();
  p.start_time = start;
  p.end_time = report::utc_now_iso8601();
  return p;
}

int finish_report(const Config& cfg, const MpiContext& mpi, const ResultsSink& sink, const std::string& start) {
  report::Report rep;
  rep.provenance = provenance(cfg, mpi, start);
  rep.results = sink.records();
  const std::string path = cfg.output_dir + "/report.json";
  std::ofstream(path) << nlohmann::json(rep).dump(2) << "\n";
  int passed = 0, failed = 0, skipped = 0;
  for (const auto& r : rep.results) {
    passed += r.status == report::Status::passed;
    failed += r.status == report::Status::failed || r.status == report::Status::timed_out;
    skipped += r.status == report::Status::skipped;
  }
  std::cout << "# " << rep.results.size() << " results: " << passed << " passed, " << failed << " failed, " << skipped
            << " skipped. Report: " << path << "\n";
  return failed ? 1 : 0;
}

}  // namespace

int run_benchmark(const Config& cfg, int& argc, char**& argv) {
  MpiSession session(argc, argv);
  MpiContext mpi = MpiContext::create();
  const std::string start = report::utc_now_iso8601();
  int code = 0;
  try {
    auto sink = open_sink(cfg, mpi);
    ControlPlane control(mpi, cfg.timeout_s, sink.get());
    Runner runner(cfg, control);
    const bool print = mpi.is_root() && !cfg.quiet;
    SuiteContext ctx{cfg, mpi, runner, control, [&](const report::Record& r) {
                       control.emit(r);
                       if (print)
                         std::cout << (r.suite == "mpi"   ? report::console_sweep_row(r)
                                       : r.suite == "tcp" ? tcp::console_line(r)  // tcp suite (issue #4)
                                       : r.suite == "rdma" ? rdma::console_line(r)  // rdma suite (issue #5)
                                                          : report::console_note(r))
                                   << std::flush;
                     }};
    for (const auto& name : cfg.suites) {
      if (print && name == "mpi")
        std::cout << report::console_sweep_header(name, mpi.size, mpi.num_nodes, to_string(cfg.reduction));
      suite_registry().at(name)(ctx);
    }
    control.finish();
    if (mpi.is_root()) code = finish_report(cfg, mpi, *sink, start);
    MPI_Bcast(&code, 1, MPI_INT, 0, mpi.world);
  } catch (const std::invalid_argument&) {
    code = 2;
  }
  mpi.release();
  return code;
}

}  // namespace gpunet::bench
