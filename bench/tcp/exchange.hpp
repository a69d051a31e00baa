// Small MPI helpers of the tcp suite: JSON documents between ranks, and the per-run secret.
#pragma once

#include <mpi.h>

#include <vector>

#include <nlohmann/json.hpp>

#include "bench/tcp/hello.hpp"

namespace gpunet::bench::tcp {

// Every rank's document, by rank, on root (empty elsewhere). Collective over comm.
std::vector<nlohmann::json> gather_json(const nlohmann::json& mine, MPI_Comm comm, int root);
// Every rank's document, by rank, everywhere. Collective over comm.
std::vector<nlohmann::json> allgather_json(const nlohmann::json& mine, MPI_Comm comm);
// root's document, everywhere. Collective over comm.
nlohmann::json bcast_json(const nlohmann::json& doc, MPI_Comm comm, int root);
// Random bytes from rank 0's kernel (getrandom), the same on every rank. Collective over comm.
Secret shared_secret(MPI_Comm comm);

}  // namespace gpunet::bench::tcp
