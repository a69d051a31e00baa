// What two ends of an RC queue pair must tell each other, and its exchange between a pair of ranks
// over MPI (in place of perftest's TCP side channel, so nobody types options on two hosts).
// The wire form is explicit little-endian bytes, independent of either host's struct layout.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include <mpi.h>

#include "bench/suites/rdma/gid.hpp"

namespace gpunet::bench::rdma {

struct QpInfo {
  uint16_t lid = 0;       // InfiniBand local identifier (0 on RoCE)
  uint32_t qpn = 0;       // queue pair number (24 bits used)
  uint32_t psn = 0;       // first packet sequence number (24 bits used)
  Gid gid{};              // the GID this end chose (RoCE; InfiniBand with --gid-index)
  uint32_t rkey = 0;      // remote key of the target buffer
  uint64_t addr = 0;      // virtual address (or dma-buf iova) of the target buffer
  uint32_t mtu = 0;       // active MTU in bytes
  int32_t gid_index = -1; // the index chosen, reported next to the peer's
  friend bool operator==(const QpInfo&, const QpInfo&) = default;
};

inline constexpr size_t kQpInfoBytes = 2 + 4 + 4 + 16 + 4 + 8 + 4 + 4;
using QpInfoWire = std::array<uint8_t, kQpInfoBytes>;

QpInfoWire serialize(const QpInfo& q);
QpInfo deserialize(const QpInfoWire& w);

// Sends `mine` to `peer` and returns what `peer` sent (MPI_Sendrecv on comm). Collective between the two.
QpInfo exchange_qp_info(MPI_Comm comm, int peer, const QpInfo& mine);

// Whether the peer is ready (or failed, and why). Each end learns the other's state, so that both
// take the same path and neither waits for a peer that gave up.
struct PeerStatus {
  bool ok = false;
  std::string message;
};
PeerStatus exchange_status(MPI_Comm comm, int peer, const PeerStatus& mine);

}  // namespace gpunet::bench::rdma
