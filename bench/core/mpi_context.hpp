// The MPI world as the harness sees it: ranks, hosts, per-node and node-leader communicators.
// MpiSession owns MPI_Init_thread/MPI_Finalize; MpiContext is built once and then read-only.
#pragma once

#include <string>
#include <vector>

#include <mpi.h>

namespace gpunet::bench {

class MpiSession {
 public:
  // MPI_THREAD_SINGLE, as MPI_Init gives a single-threaded program: only the main thread ever calls
  // MPI, and the control thread (the watchdog, on its own TCP channel) never enters the library. Any
  // higher level costs the measuring path: Open MPI 4.1 turns on all of its internal locking
  // (opal_uses_threads) at FUNNELED as at MULTIPLE, which made an 8 B allreduce 1.1-1.6x slower
  // than a bare MPI_Init loop here (bench/perf/harness_overhead.sh); a second thread that never
  // calls MPI costs nothing by itself.
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

struct MpiContext {
  MPI_Comm world = MPI_COMM_NULL;     // duplicate of MPI_COMM_WORLD for measurements
  MPI_Comm node = MPI_COMM_NULL;      // ranks sharing this node (shared-memory split)
  MPI_Comm leaders = MPI_COMM_NULL;   // one rank per node (local rank 0); MPI_COMM_NULL elsewhere
  int rank = 0;
  int size = 1;
  int local_rank = 0;
  int local_size = 1;
  int node_index = 0;                 // index of this node, in order of first rank
  int num_nodes = 1;
  std::string host;
  std::vector<std::string> hosts;     // by rank
  std::vector<int> node_of_rank;      // node index by rank
  std::vector<int> ranks_per_node;    // by node index
  std::string mpi_library_version;

  static MpiContext create();         // collective over MPI_COMM_WORLD
  void release();                     // frees the communicators (before MPI_Finalize)
  bool is_root() const { return rank == 0; }
  std::string describe_rank(int r) const;  // "rank 3 (host-b)"

  // The harness's own messages between measurements go both ways. Rank 0's `bytes` at `data` reach
  // every rank through a bitwise-or reduction over world (the other ranks give zeros), not a
  // broadcast; `all_ok` is every rank's flag, the minimum. Why: Open MPI's shared-memory transport
  // keeps one ring of small-message slots per direction between two ranks, and a message sent one
  // way only (a broadcast's) leaves the two rings at different places for the rest of the run. On
  // the VM this was built on, an odd number of such messages before a loop made its 8 B allreduce
  // 9-14 % slower, an even number nothing (bench/perf/harness_overhead.sh, job bare-odd). With 2 ranks
  // (and any power of two) a reduction sends as many messages each way.
  void from_root(void* data, int bytes) const;
  bool all_ok(bool mine) const;
};

}  // namespace gpunet::bench
