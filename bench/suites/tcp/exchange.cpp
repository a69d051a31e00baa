#include "bench/suites/tcp/exchange.hpp"

#include <numeric>
#include <stdexcept>
#include <string>

namespace gpunet::bench::tcp {

namespace {

std::vector<gpunet::json> unpack(const std::vector<char>& all, const std::vector<int>& counts, const std::vector<int>& displs) {
  std::vector<gpunet::json> out;
  for (size_t r = 0; r < counts.size(); ++r)
    out.push_back(gpunet::json::parse(all.begin() + displs[r], all.begin() + displs[r] + counts[r]));
  return out;
}

std::vector<int> displacements(const std::vector<int>& counts) {
  std::vector<int> d(counts.size(), 0);
  for (size_t i = 1; i < counts.size(); ++i) d[i] = d[i - 1] + counts[i - 1];
  return d;
}

}  // namespace

std::vector<gpunet::json> gather_json(const gpunet::json& mine, MPI_Comm comm, int root) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::string text = mine.dump();
  int len = static_cast<int>(text.size());
  std::vector<int> counts(static_cast<size_t>(size));
  MPI_Gather(&len, 1, MPI_INT, counts.data(), 1, MPI_INT, root, comm);
  const auto displs = displacements(counts);
  std::vector<char> all(rank == root ? static_cast<size_t>(std::accumulate(counts.begin(), counts.end(), 0)) : 0);
  MPI_Gatherv(text.data(), len, MPI_CHAR, all.data(), counts.data(), displs.data(), MPI_CHAR, root, comm);
  return rank == root ? unpack(all, counts, displs) : std::vector<gpunet::json>{};
}

std::vector<gpunet::json> allgather_json(const gpunet::json& mine, MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  const std::string text = mine.dump();
  int len = static_cast<int>(text.size());
  std::vector<int> counts(static_cast<size_t>(size));
  MPI_Allgather(&len, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  const auto displs = displacements(counts);
  std::vector<char> all(static_cast<size_t>(std::accumulate(counts.begin(), counts.end(), 0)));
  MPI_Allgatherv(text.data(), len, MPI_CHAR, all.data(), counts.data(), displs.data(), MPI_CHAR, comm);
  return unpack(all, counts, displs);
}

gpunet::json bcast_json(const gpunet::json& doc, MPI_Comm comm, int root) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string text = rank == root ? doc.dump() : std::string();
  int len = static_cast<int>(text.size());
  MPI_Bcast(&len, 1, MPI_INT, root, comm);
  text.resize(static_cast<size_t>(len));
  MPI_Bcast(text.data(), len, MPI_CHAR, root, comm);
  return gpunet::json::parse(text);
}

auth::Key shared_key(const MpiContext& mpi) {
  auth::Key key{};
  bool ok = true;
  std::string why;
  if (mpi.is_root()) {
    try {
      key = auth::random_key();
    } catch (const std::runtime_error& e) {
      ok = false;
      why = e.what();
    }
  }
  if (!mpi.all_ok(ok)) throw std::runtime_error("the tcp suite's run key: " + (mpi.is_root() ? why : std::string("rank 0 could not draw it")));
  mpi.from_root(key.data(), static_cast<int>(key.size()));
  return key;
}

}  // namespace gpunet::bench::tcp
