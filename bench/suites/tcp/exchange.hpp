// Small MPI helpers of the tcp suite: JSON documents between ranks, and the per-run key.
#pragma once

#include <mpi.h>

#include <vector>

#include "common/json.hpp"

#include "bench/core/auth/hmac.hpp"
#include "bench/core/mpi_context.hpp"

namespace gpunet::bench::tcp {

// Every rank's document, by rank, on root (empty elsewhere). Collective over comm.
std::vector<gpunet::json> gather_json(const gpunet::json& mine, MPI_Comm comm, int root);
// Every rank's document, by rank, everywhere. Collective over comm.
std::vector<gpunet::json> allgather_json(const gpunet::json& mine, MPI_Comm comm);
// root's document, everywhere. Collective over comm.
gpunet::json bcast_json(const gpunet::json& doc, MPI_Comm comm, int root);
// The run key: drawn on rank 0 (auth::random_key) and handed to every rank over MPI, the trusted
// wire-up (MpiContext::from_root); it never travels on the data network. The same on every rank.
// Collective over mpi.world; throws std::runtime_error on every rank when rank 0 could not draw it.
auth::Key shared_key(const MpiContext& mpi);

}  // namespace gpunet::bench::tcp
