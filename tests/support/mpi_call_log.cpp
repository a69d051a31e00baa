// PMPI interposer for tests/integration/startup_messages_test.sh: each rank appends the name of
// every collective or point-to-point call it makes to $MPI_CALL_LOG.<rank>, one per line, with the
// count and datatype for MPI_Allreduce ("Allreduce 2 float"), so a test can see which calls came
// before the first timed one. Loaded with LD_PRELOAD; it changes no call.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

void note(const std::string& what) {
  const char* base = std::getenv("MPI_CALL_LOG");
  if (!base) return;
  int rank = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string path = std::string(base) + "." + std::to_string(rank);
  if (FILE* f = std::fopen(path.c_str(), "a")) {
    std::fprintf(f, "%s\n", what.c_str());
    std::fclose(f);
  }
}

}  // namespace

extern "C" {

int MPI_Bcast(void* b, int n, MPI_Datatype t, int root, MPI_Comm c) {
  note("Bcast");
  return PMPI_Bcast(b, n, t, root, c);
}
int MPI_Gather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root, MPI_Comm c) {
  note("Gather");
  return PMPI_Gather(s, sn, st, r, rn, rt, root, c);
}
int MPI_Gatherv(const void* s, int sn, MPI_Datatype st, void* r, const int* rn, const int* d, MPI_Datatype rt, int root, MPI_Comm c) {
  note("Gatherv");
  return PMPI_Gatherv(s, sn, st, r, rn, d, rt, root, c);
}
int MPI_Scatter(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, int root, MPI_Comm c) {
  note("Scatter");
  return PMPI_Scatter(s, sn, st, r, rn, rt, root, c);
}
int MPI_Reduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c) {
  note("Reduce");
  return PMPI_Reduce(s, r, n, t, op, root, c);
}
int MPI_Send(const void* b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c) {
  note("Send");
  return PMPI_Send(b, n, t, dest, tag, c);
}
int MPI_Allreduce(const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  note("Allreduce " + std::to_string(n) + (t == MPI_FLOAT ? " float" : ""));
  return PMPI_Allreduce(s, r, n, t, op, c);
}
int MPI_Allgather(const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, MPI_Comm c) {
  note("Allgather");
  return PMPI_Allgather(s, sn, st, r, rn, rt, c);
}
int MPI_Barrier(MPI_Comm c) {
  note("Barrier");
  return PMPI_Barrier(c);
}

}  // extern "C"
