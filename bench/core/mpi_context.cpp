#include "bench/core/mpi_context.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace gpunet::bench {

namespace {

// Any MPI error ends the job with the runtime-failure exit code and one line that says where.
void fatal_mpi_error(MPI_Comm* comm, int* code, ...) {
  char msg[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(*code, msg, &len);
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  std::fprintf(stderr, "gpunet-bench: MPI error on rank %d (%s): %s\n", rank, host, msg);
  std::fflush(stderr);
  (void)comm;
  MPI_Abort(MPI_COMM_WORLD, 3);
}

MPI_Comm dup_with_handler(MPI_Comm base, MPI_Errhandler handler) {
  MPI_Comm c = MPI_COMM_NULL;
  MPI_Comm_dup(base, &c);
  MPI_Comm_set_errhandler(c, handler);
  return c;
}

}  // namespace

MpiSession::MpiSession(int& argc, char**& argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
  MPI_Errhandler handler;
  MPI_Comm_create_errhandler(&fatal_mpi_error, &handler);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler);
  MPI_Errhandler_free(&handler);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

MpiContext MpiContext::create() {
  MpiContext c;
  MPI_Errhandler handler;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &handler);
  c.world = dup_with_handler(MPI_COMM_WORLD, handler);
  MPI_Errhandler_free(&handler);
  MPI_Comm_rank(c.world, &c.rank);
  MPI_Comm_size(c.world, &c.size);

  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  c.host.assign(name, static_cast<size_t>(len));
  std::vector<char> all(static_cast<size_t>(c.size) * MPI_MAX_PROCESSOR_NAME, '\0');
  std::vector<char> mine(MPI_MAX_PROCESSOR_NAME, '\0');
  std::copy(c.host.begin(), c.host.end(), mine.begin());
  MPI_Allgather(mine.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, c.world);
  for (int r = 0; r < c.size; ++r) c.hosts.emplace_back(&all[static_cast<size_t>(r) * MPI_MAX_PROCESSOR_NAME]);

  // Node = shared-memory domain. Node index follows the lowest world rank on each node.
  MPI_Comm_split_type(c.world, MPI_COMM_TYPE_SHARED, c.rank, MPI_INFO_NULL, &c.node);
  MPI_Comm_rank(c.node, &c.local_rank);
  MPI_Comm_size(c.node, &c.local_size);
  int first = c.rank;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, c.node);
  std::vector<int> first_of_rank(static_cast<size_t>(c.size));
  MPI_Allgather(&first, 1, MPI_INT, first_of_rank.data(), 1, MPI_INT, c.world);
  std::vector<int> firsts = first_of_rank;
  std::sort(firsts.begin(), firsts.end());
  firsts.erase(std::unique(firsts.begin(), firsts.end()), firsts.end());
  c.num_nodes = static_cast<int>(firsts.size());
  c.ranks_per_node.assign(firsts.size(), 0);
  for (int r = 0; r < c.size; ++r) {
    const auto idx = static_cast<int>(std::lower_bound(firsts.begin(), firsts.end(), first_of_rank[static_cast<size_t>(r)]) - firsts.begin());
    c.node_of_rank.push_back(idx);
    ++c.ranks_per_node[static_cast<size_t>(idx)];
  }
  c.node_index = c.node_of_rank[static_cast<size_t>(c.rank)];
  MPI_Comm_split(c.world, c.local_rank == 0 ? 0 : MPI_UNDEFINED, c.rank, &c.leaders);

  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  MPI_Get_library_version(version, &len);
  std::string v(version, static_cast<size_t>(len));
  c.mpi_library_version = v.substr(0, v.find_first_of(",\n"));
  return c;
}

void MpiContext::from_root(void* data, int bytes) const {
  if (!is_root()) std::memset(data, 0, static_cast<size_t>(bytes));
  MPI_Allreduce(MPI_IN_PLACE, data, bytes, MPI_BYTE, MPI_BOR, world);
}

bool MpiContext::all_ok(bool mine) const {
  int ok = mine ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, world);
  return ok != 0;
}

void MpiContext::release() {
  for (MPI_Comm* comm : {&leaders, &node, &world})
    if (*comm != MPI_COMM_NULL) MPI_Comm_free(comm);
}

std::string MpiContext::describe_rank(int r) const {
  const std::string h = r >= 0 && r < static_cast<int>(hosts.size()) ? hosts[static_cast<size_t>(r)] : "?";
  return "rank " + std::to_string(r) + " (" + h + ")";
}

}  // namespace gpunet::bench
