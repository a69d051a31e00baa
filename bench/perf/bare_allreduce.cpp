// Yardstick for the mpi suite (bench/perf/harness_overhead.sh): what a user would otherwise run, a
// bare single-threaded MPI_Allreduce loop (float, sum, out of place) timed as OSU times it: warm-up,
// a barrier, one MPI_Wtime pair around a batch of ITERS iterations, the mean time per iteration, the
// largest of the ranks. Nothing else runs in the process.
// It takes turns with other programs on the same cores (bench/perf/take_turns.py): after the
// warm-up rank 0 prints "ready" and waits for a byte on standard input; then it times batches back
// to back until the next byte arrives (looked for between batches, outside the timed part), and
// prints the batches' means in order: "bare_allreduce ... samples_us=a,b,...".
// Usage: mpirun -np 2 bare_allreduce BYTES ITERS WARMUP [mpi-init|single|funneled|multiple] [idle-thread|-] [dup]
//   single, funneled, multiple: initialise with MPI_Init_thread at that level instead of MPI_Init,
//   to tell the cost of the thread level from the cost of the harness itself.
//   idle-thread: a second thread, started before MPI is initialised, sleeps in poll() on a pipe
//   until the end and never calls MPI (as the harness's control thread mostly does), to tell the
//   cost of a second thread existing from the cost of the thread level.
//   dup: call MPI_Allreduce on a duplicate of MPI_COMM_WORLD with its own error handler, as the
//   harness does, instead of on MPI_COMM_WORLD.
#include <mpi.h>
#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
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

// Rank 0 reads one byte of standard input (blocking when `wait`), and every rank learns whether one came.
bool byte_arrived(int rank, bool wait) {
  int got = 0;
  if (rank == 0) {
    pollfd p{STDIN_FILENO, POLLIN, 0};
    char c = 0;
    got = (wait || poll(&p, 1, 0) > 0) && read(STDIN_FILENO, &c, 1) >= 0;
  }
  MPI_Bcast(&got, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return got != 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Level level = level_of(argc > 4 ? argv[4] : "");
  const bool idle_thread = argc > 5 && std::strcmp(argv[5], "idle-thread") == 0;
  const bool dup = argc > 6 && std::strcmp(argv[6], "dup") == 0;
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
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm comm = MPI_COMM_WORLD;
  if (dup) {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  }
  std::vector<float> in(static_cast<size_t>(count), 1.0f), out(static_cast<size_t>(count));
  for (int i = 0; i < warmup; ++i) MPI_Allreduce(in.data(), out.data(), count, MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("ready\n");
    std::fflush(stdout);
  }
  byte_arrived(rank, true);
  std::vector<double> means_us;
  do {
    const double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) MPI_Allreduce(in.data(), out.data(), count, MPI_FLOAT, MPI_SUM, comm);
    means_us.push_back((MPI_Wtime() - t0) / iters * 1e6);
  } while (!byte_arrived(rank, false));
  MPI_Allreduce(MPI_IN_PLACE, means_us.data(), static_cast<int>(means_us.size()), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) {
    std::string list;
    for (double m : means_us) list += (list.empty() ? "" : ",") + std::to_string(m);
    std::printf("bare_allreduce bytes=%ld iters_per_batch=%d init=%s idle_thread=%d dup=%d samples_us=%s\n", bytes, iters,
                level.name, idle_thread ? 1 : 0, dup ? 1 : 0, list.c_str());
  }
  if (dup) MPI_Comm_free(&comm);
  MPI_Finalize();
  if (idle_thread) {
    (void)!write(wake[1], "x", 1);
    idle.join();
    close(wake[0]);
    close(wake[1]);
  }
  return 0;
}
