// Yardstick for the mpi suite (bench/perf/harness_overhead.sh): what a user would otherwise run, a
// bare single-threaded MPI_Allreduce loop (float, sum) timed as OSU times it: warm-up, a barrier, one
// MPI_Wtime pair around a batch of ITERS iterations, the mean time per iteration, the largest of the
// ranks. Nothing else runs in the process.
// Usage: mpirun -np 2 bare_allreduce BYTES ITERS WARMUP [funneled|multiple]
//   funneled, multiple: initialise with MPI_Init_thread at that level instead of MPI_Init, to tell
//   the cost of the thread level (the harness runs at MPI_THREAD_FUNNELED) from the cost of the
//   harness itself.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  const char* level = argc > 4 ? argv[4] : "";
  const bool funneled = std::strcmp(level, "funneled") == 0, multiple = std::strcmp(level, "multiple") == 0;
  if (funneled || multiple) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_FUNNELED, &provided);
  } else {
    MPI_Init(&argc, &argv);
  }
  const long bytes = argc > 1 ? std::atol(argv[1]) : 64L << 20;
  const int iters = argc > 2 ? std::atoi(argv[2]) : 20;
  const int warmup = argc > 3 ? std::atoi(argv[3]) : 2;
  const int count = static_cast<int>(bytes / static_cast<long>(sizeof(float)));
  std::vector<float> in(static_cast<size_t>(count), 1.0f), out(static_cast<size_t>(count));
  for (int i = 0; i < warmup; ++i) MPI_Allreduce(in.data(), out.data(), count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int i = 0; i < iters; ++i) MPI_Allreduce(in.data(), out.data(), count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  double per_iter = (MPI_Wtime() - t0) / iters;
  MPI_Allreduce(MPI_IN_PLACE, &per_iter, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int rank = 0, n = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const double algbw = static_cast<double>(bytes) / 1e9 / per_iter;
  if (rank == 0)
    std::printf("bare_allreduce bytes=%ld iters=%d init=%s mean_us=%.4f algbw_GBps=%.4f busbw_GBps=%.4f\n", bytes, iters,
                multiple ? "MPI_THREAD_MULTIPLE" : funneled ? "MPI_THREAD_FUNNELED" : "MPI_Init", per_iter * 1e6, algbw, algbw * 2.0 * (n - 1) / n);
  MPI_Finalize();
  return 0;
}
