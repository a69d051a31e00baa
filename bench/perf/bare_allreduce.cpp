// Reference for the harness-overhead benchmark: a bare MPI_Allreduce loop on float sums, timed per
// iteration after a barrier, with the max across ranks, exactly as the runner times it.
// Usage: mpirun -np 2 bare_allreduce BYTES ITERS WARMUP [multiple]
//   multiple: initialise with MPI_THREAD_MULTIPLE, the thread level gpunet-bench runs at (its watchdog
//   thread), to tell the cost of that level from the cost of the harness.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  if (argc > 4 && std::strcmp(argv[4], "multiple") == 0) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  } else {
    MPI_Init(&argc, &argv);
  }
  const long bytes = argc > 1 ? std::atol(argv[1]) : 64L << 20;
  const int iters = argc > 2 ? std::atoi(argv[2]) : 20;
  const int warmup = argc > 3 ? std::atoi(argv[3]) : 2;
  const int count = static_cast<int>(bytes / static_cast<long>(sizeof(float)));
  std::vector<float> in(static_cast<size_t>(count), 1.0f), out(static_cast<size_t>(count));
  for (int i = 0; i < warmup; ++i) MPI_Allreduce(in.data(), out.data(), count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  std::vector<double> t(static_cast<size_t>(iters));
  MPI_Barrier(MPI_COMM_WORLD);
  for (double& s : t) {
    const double t0 = MPI_Wtime();
    MPI_Allreduce(in.data(), out.data(), count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    s = MPI_Wtime() - t0;
  }
  MPI_Allreduce(MPI_IN_PLACE, t.data(), iters, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int rank = 0, n = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  double sum = 0;
  for (double s : t) sum += s;
  const double mean = sum / iters;
  std::sort(t.begin(), t.end());
  const double p50 = t[(t.size() + 1) / 2 - 1];  // nearest-rank median, as report/stats.cpp
  const double factor = 2.0 * (n - 1) / n;
  if (rank == 0)
    std::printf("bare_allreduce bytes=%ld iters=%d mean_us=%.2f p50_us=%.2f algbw_GBps=%.4f busbw_GBps=%.4f "
                "busbw_p50_GBps=%.4f\n",
                bytes, iters, mean * 1e6, p50 * 1e6, static_cast<double>(bytes) / 1e9 / mean,
                static_cast<double>(bytes) / 1e9 / mean * factor, static_cast<double>(bytes) / 1e9 / p50 * factor);
  MPI_Finalize();
  return 0;
}
