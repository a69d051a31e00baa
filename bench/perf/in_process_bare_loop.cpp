// Yardstick for the mpi suite without the noise between processes (bench/perf/harness_in_process.sh):
// preloaded into gpunet-bench (LD_PRELOAD), it interposes MPI_Allreduce through the MPI profiling
// interface and, while the suite times its allreduce, runs a bare loop of the same call (same
// buffers, count, type, op and communicator: PMPI_Allreduce, one MPI_Wtime pair around the batch)
// in the same process, next to a window of the suite's own calls timed the same way. So both are
// timed at the same moment, in the same process state (its threads, libraries, heap), and differ
// only in what the suite's measuring path adds. The pairs alternate which comes first.
// It acts on out-of-place float allreduce calls only: the suite's timed call, not its agreements or
// reductions of samples (in place, double). At MPI_Finalize rank 0 writes one line per pair to
// $GPUNET_PERF_OUT: "suite_us bare_us", each the slowest rank's mean time per call.
// Environment: GPUNET_PERF_WINDOW (calls per window and per bare loop, default 100000),
// GPUNET_PERF_EVERY (suite calls from one pair to the next, default 4 windows), GPUNET_PERF_OUT.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

long env_long(const char* name, long fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atol(v) : fallback;
}

struct Pairs {
  long window = env_long("GPUNET_PERF_WINDOW", 100000);
  long every = env_long("GPUNET_PERF_EVERY", 4 * window);
  long calls = 0;                    // the suite's timed calls so far
  long next = every - window;        // the call at which the next window (or bare loop) begins
  bool in_window = false;
  double window_t0 = 0;              // when the current window of suite calls began
  std::vector<double> suite_us, bare_us;
  bool bare_first() const { return suite_us.size() % 2 == 1; }  // in odd pairs (suite_us holds the earlier ones)
};

Pairs& pairs() {
  static Pairs p;
  return p;
}

double bare_loop_us(const void* s, void* r, int count, MPI_Datatype t, MPI_Op op, MPI_Comm c, long iters) {
  const double t0 = PMPI_Wtime();
  for (long i = 0; i < iters; ++i) PMPI_Allreduce(s, r, count, t, op, c);
  return (PMPI_Wtime() - t0) / static_cast<double>(iters) * 1e6;
}

}  // namespace

extern "C" int MPI_Allreduce(const void* s, void* r, int count, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  Pairs& p = pairs();
  // A few comparisons per call outside the pairs' edges (no division), so that the suite's window
  // carries next to nothing the bare loop does not. In even pairs a window of suite calls comes first, then the bare loop;
  // in odd pairs the bare loop, then the window.
  if (s == MPI_IN_PLACE || t != MPI_FLOAT || ++p.calls != p.next || p.window <= 0) return PMPI_Allreduce(s, r, count, t, op, c);
  if (!p.in_window) {
    if (p.bare_first()) p.bare_us.push_back(bare_loop_us(s, r, count, t, op, c, p.window));
    p.in_window = true;
    p.next = p.calls + p.window;
    p.window_t0 = PMPI_Wtime();
  } else {
    const bool bare_after = !p.bare_first();
    p.suite_us.push_back((PMPI_Wtime() - p.window_t0) / static_cast<double>(p.window) * 1e6);
    p.in_window = false;
    p.next = p.calls + p.every - p.window;
    if (bare_after) p.bare_us.push_back(bare_loop_us(s, r, count, t, op, c, p.window));
  }
  return PMPI_Allreduce(s, r, count, t, op, c);
}

extern "C" int MPI_Finalize() {
  Pairs& p = pairs();
  const size_t n = std::min(p.suite_us.size(), p.bare_us.size());
  std::vector<double> both(2 * n);
  for (size_t i = 0; i < n; ++i) both[2 * i] = p.suite_us[i], both[2 * i + 1] = p.bare_us[i];
  PMPI_Allreduce(MPI_IN_PLACE, both.data(), static_cast<int>(both.size()), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* out = std::getenv("GPUNET_PERF_OUT");
  if (rank == 0 && out) {
    if (FILE* f = std::fopen(out, "a")) {
      for (size_t i = 0; i < n; ++i) std::fprintf(f, "%.5f %.5f\n", both[2 * i], both[2 * i + 1]);
      std::fclose(f);
    }
  }
  return PMPI_Finalize();
}
