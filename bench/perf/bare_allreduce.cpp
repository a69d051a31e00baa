// Yardstick for the mpi suite (bench/perf/harness_overhead.sh): what a user would otherwise run, a
// bare single-threaded MPI_Allreduce loop (float, sum, out of place) timed as nccl-tests and OSU time
// it: warm-up, one MPI_Barrier, then one MPI_Wtime pair around each batch of ITERS iterations, the
// mean time per iteration, the largest of the ranks. Nothing else runs in the process, and nothing
// runs between two batches but the clock: like the suite, it times batch after batch from one barrier.
// It takes turns with other programs on the same cores (bench/perf/take_turns.py): after the
// warm-up rank 0 prints "ready" and waits for a byte on standard input; then it times batches back
// to back until the next byte arrives, and prints the batches' means in order:
// "bare_allreduce ... samples_us=a,b,...". Rank 0 looks for that byte between batches (outside the
// timed part) and tells the other ranks through the reduced data itself: element 0 of its input is 1
// until then and 0 after, everyone else's 0, so every rank stops after the same batch without an
// extra call.
// Usage: mpirun -np 2 bare_allreduce BYTES ITERS WARMUP [WORD...], words in any order:
//   mpi-init (the default), single, funneled, multiple: initialise with MPI_Init_thread at that level
//     instead of MPI_Init, to tell the cost of the thread level from the cost of the harness itself;
//   idle-thread: a second thread, started before MPI is initialised, sleeps in poll() on a pipe
//     until the end and never calls MPI (as the harness's control thread mostly does);
//   dup: call MPI_Allreduce on a duplicate of MPI_COMM_WORLD with its own error handler, as the
//     harness does, instead of on MPI_COMM_WORLD;
//   one-bcast: one MPI_Bcast from rank 0 after the warm-up. A message sent one way only leaves Open
//     MPI's two shared-memory rings of small-message slots between the ranks (one per direction) at
//     different places for the rest of the run; on the VM this was built on, an odd number of them
//     made the 8 B loop 9-14 % slower, an even number nothing. gpunet-bench's start-up once sent three
//     (see MpiContext::from_root); this word shows the effect in every run of the yardstick.
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

struct Options {
  const char* level_name = "MPI_Init";
  int level = -1;  // -1: MPI_Init
  bool idle_thread = false, dup = false, one_bcast = false;
};

Options options_of(int argc, char** argv) {
  struct Level {
    const char* word;
    const char* name;
    int level;
  };
  const Level levels[] = {{"single", "MPI_THREAD_SINGLE", MPI_THREAD_SINGLE},
                          {"funneled", "MPI_THREAD_FUNNELED", MPI_THREAD_FUNNELED},
                          {"multiple", "MPI_THREAD_MULTIPLE", MPI_THREAD_MULTIPLE}};
  Options o;
  for (int i = 4; i < argc; ++i) {
    const std::string w = argv[i];
    for (const Level& l : levels)
      if (w == l.word) {
        o.level_name = l.name;
        o.level = l.level;
      }
    o.idle_thread |= w == "idle-thread";
    o.dup |= w == "dup";
    o.one_bcast |= w == "one-bcast";
  }
  return o;
}

// Rank 0 only: whether a byte arrived on standard input (blocking until one does when `wait`).
bool byte_arrived(bool wait) {
  pollfd p{STDIN_FILENO, POLLIN, 0};
  char c = 0;
  return (wait || poll(&p, 1, 0) > 0) && read(STDIN_FILENO, &c, 1) >= 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = options_of(argc, argv);
  int wake[2] = {-1, -1};
  std::thread idle;
  if (opt.idle_thread) {
    if (pipe(wake) != 0) return 1;
    idle = std::thread([fd = wake[0]] {
      pollfd p{fd, POLLIN, 0};
      while (poll(&p, 1, 1000) == 0) {
      }
    });
  }
  if (opt.level >= 0) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, opt.level, &provided);
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
  if (opt.dup) {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  }
  std::vector<float> in(static_cast<size_t>(count), 1.0f), out(static_cast<size_t>(count));
  for (int i = 0; i < warmup; ++i) MPI_Allreduce(in.data(), out.data(), count, MPI_FLOAT, MPI_SUM, comm);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("ready\n");
    std::fflush(stdout);
    byte_arrived(true);
  }
  in[0] = rank == 0 ? 1.0f : 0.0f;  // the go-on flag, summed into out[0]
  if (opt.one_bcast) {
    int word = 0;
    MPI_Bcast(&word, 1, MPI_INT, 0, comm);
  }
  MPI_Barrier(comm);
  std::vector<double> means_us;
  do {
    const double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) MPI_Allreduce(in.data(), out.data(), count, MPI_FLOAT, MPI_SUM, comm);
    means_us.push_back((MPI_Wtime() - t0) / iters * 1e6);
    if (rank == 0 && byte_arrived(false)) in[0] = 0.0f;  // the next batch is the last
  } while (out[0] > 0.5f);
  MPI_Allreduce(MPI_IN_PLACE, means_us.data(), static_cast<int>(means_us.size()), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) {
    std::string list;
    for (double m : means_us) list += (list.empty() ? "" : ",") + std::to_string(m);
    std::printf("bare_allreduce bytes=%ld iters_per_batch=%d init=%s idle_thread=%d dup=%d one_bcast=%d samples_us=%s\n",
                bytes, iters, opt.level_name, opt.idle_thread ? 1 : 0, opt.dup ? 1 : 0, opt.one_bcast ? 1 : 0, list.c_str());
  }
  if (opt.dup) MPI_Comm_free(&comm);
  MPI_Finalize();
  if (opt.idle_thread) {
    (void)!write(wake[1], "x", 1);
    idle.join();
    close(wake[0]);
    close(wake[1]);
  }
  return 0;
}
