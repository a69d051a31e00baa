// Rank 0's end of a run, without MPI, to measure what it holds: each record of a results.jsonl
// arrives as the control plane hands over another rank's record (its JSON line parsed into a Record),
// goes to a ResultsSink writing OUT/results.jsonl, and the report is made from sink.records() as the
// run's finish makes it. Prints rank 0's memory once every record has arrived and at the end.
//
// usage: rank0_end RESULTS.jsonl OUT_DIR     (a results.jsonl from bench/perf/gen_pair_matrix.py)
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "bench/core/results_sink.hpp"
#include "report/analysed/analyse.hpp"
#include "report/render/outputs.hpp"

namespace {

long rss_mb() {
  long pages = 0, resident = 0;
  std::ifstream("/proc/self/statm") >> pages >> resident;
  return resident * ::sysconf(_SC_PAGESIZE) / (1 << 20);
}

long peak_mb() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpunet;
  if (argc != 3) {
    std::cerr << "usage: rank0_end RESULTS.jsonl OUT_DIR\n";
    return 2;
  }
  const std::string out = argv[2];
  const auto start = std::chrono::steady_clock::now();
  report::Report rep;
  std::size_t arrived = 0;
  {
    bench::ResultsSink sink(out + "/results.jsonl", std::cerr);
    std::ifstream in(argv[1]);
    for (std::string line; std::getline(in, line);) {
      json j = json::parse(line);
      if (j.contains("provenance")) {
        rep.provenance = j.at("provenance").get<report::Provenance>();
        continue;
      }
      sink.append(j.get<report::Record>());
      ++arrived;
    }
    std::printf("%zu records arrived: rank 0 holds %ld MB (peak %ld MB)\n", arrived, rss_mb(), peak_mb());
    rep.results = sink.records();
  }
  const report::Analysed a = report::analyse(std::move(rep));
  report::write_analysed_outputs(a, out);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("report written: peak %ld MB, %.1f s in all\n", peak_mb(), secs);
  return 0;
}
