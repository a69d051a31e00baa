// Yardstick for the mpi suite (bench/perf/harness_overhead.sh): what a user would otherwise run, a
// bare single-threaded MPI_Allreduce loop (float, sum) timed as OSU times it: warm-up, a barrier, one
// MPI_Wtime pair around a batch of ITERS iterations, the mean time per iteration, the largest of the
// ranks. Nothing else runs in the process.
// Usage: mpirun -np 2 bare_allreduce BYTES ITERS WARMUP [single|funneled|multiple] [idle-thread]
//   single, funneled, multiple: initialise with MPI_Init_thread at that level instead of MPI_Init,
//   to tell the cost of the thread level from the cost of the harness itself.
//   idle-thread: a second thread, started before MPI is initialised, sleeps in poll() on a pipe
//   until the end and never calls MPI (as the harness's control thread mostly does), to tell the
//   cost of a second thread existing from the cost of the thread level.
#include <mpi.h>
#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

struct Level {
  const char* name;
  int level;  // -1: MPI_Init
};

Level level_of(const char* word) {
  if (std::strcmp(word, "single") == 0) return {"MPI_THREAD_SINGLE", MPI_THREAD_SINGLE};
  if (std::strcmp(word, "funneled") == 0) return {"MPI_THREAD_FUNNELED", MPI_THREAD_FUNNELED};
  if (std::strcmp(word, "multiple") == 0) return {"MPI_THREAD_MULTIPLE", MPI_THREAD_MULTIPLE};
  return {"MPI_Init", -1};
}

}  // namespace

int main(int argc, char** argv) {
  const Level level = level_of(argc > 4 ? argv[4] : "");
  const bool idle_thread = argc > 5 && std::strcmp(argv[5], "idle-thread") == 0;
  int wake[2] = {-1, -1};
  std::thread idle;
  if (idle_thread) {
    if (pipe(wake) != 0) return 1;
    idle = std::thread([fd = wake[0]] {
      pollfd p{fd, POLLIN, 0};
      while (poll(&p, 1, 1000) == 0) {
      }
    });
  }
  if (level.level >= 0) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, level.level, &provided);
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
    std::printf("bare_allreduce bytes=%ld iters=%d init=%s idle_thread=%d mean_us=%.4f algbw_GBps=%.4f busbw_GBps=%.4f\n", bytes,
                iters, level.name, idle_thread ? 1 : 0, per_iter * 1e6, algbw, algbw * 2.0 * (n - 1) / n);
  MPI_Finalize();
  if (idle_thread) {
    (void)!write(wake[1], "x", 1);
    idle.join();
    close(wake[0]);
    close(wake[1]);
  }
  return 0;
}
