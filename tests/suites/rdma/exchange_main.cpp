// Under the real mpirun: the all-pairs schedule is the same on every rank and covers every pair once,
// and the QP information and state exchange between the two ranks of each pair delivers exactly what
// the peer sent (synthetic values that differ per rank, peer and round). Exit 0 when all holds.
#include <mpi.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "bench/suites/rdma/qp_info.hpp"
#include "bench/engines/pair_schedule.hpp"

using namespace gpunet::bench;
using namespace gpunet::bench::rdma;

namespace {

QpInfo synthetic(int from, int to, int round) {
  QpInfo q;
  const uint32_t k = static_cast<uint32_t>(from * 1000 + to * 10 + round);
  q.lid = static_cast<uint16_t>(0x100 + from);
  q.qpn = 0x10000u + k;
  q.psn = (k * 2654435761u) & 0xffffffu;
  for (size_t i = 0; i < q.gid.size(); ++i) q.gid[i] = static_cast<uint8_t>(k + i * 17);
  q.rkey = 0xa0000000u | k;
  q.addr = 0x7f0000000000ULL + (static_cast<uint64_t>(k) << 20);
  q.mtu = 1024u << (k % 3);
  q.gid_index = from % 4;
  return q;
}

std::string message_from(int from, int to) {
  return "rank " + std::to_string(from) + " to " + std::to_string(to) + ": " + std::string(static_cast<size_t>(200 + from), 'x');
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, n = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  int bad = 0;
  auto check = [&](bool ok, const std::string& what) {
    if (!ok) {
      ++bad;
      std::fprintf(stderr, "rank %d: %s\n", rank, what.c_str());
    }
  };

  const auto rounds = all_pairs_rounds(n);  // the scheduler the tcp and rdma suites share
  // The schedule as numbers; every rank must hold rank 0's.
  std::vector<int> flat;
  for (const auto& r : rounds) {
    flat.push_back(-1);
    for (const auto& p : r) flat.insert(flat.end(), {p.a, p.b});
  }
  int len = static_cast<int>(flat.size());
  MPI_Bcast(&len, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> root(static_cast<size_t>(len));
  if (rank == 0) root = flat;
  MPI_Bcast(root.data(), len, MPI_INT, 0, MPI_COMM_WORLD);
  check(root == flat, "schedule differs from rank 0's");

  std::vector<int> met(static_cast<size_t>(n * n), 0);
  int exchanges = 0;
  for (int round = 0; round < static_cast<int>(rounds.size()); ++round) {
    std::optional<int> peer;
    int color = MPI_UNDEFINED;
    for (size_t i = 0; i < rounds[static_cast<size_t>(round)].size(); ++i) {
      const auto& p = rounds[static_cast<size_t>(round)][i];
      if (p.a == rank || p.b == rank) {
        peer = p.a == rank ? p.b : p.a;
        color = static_cast<int>(i);
      }
    }
    MPI_Comm pair = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &pair);
    if (!peer) {
      check(pair == MPI_COMM_NULL, "idle rank got a communicator");
      continue;
    }
    int size = 0, me = 0;
    MPI_Comm_size(pair, &size);
    MPI_Comm_rank(pair, &me);
    check(size == 2, "pair communicator of size " + std::to_string(size));
    met[static_cast<size_t>(rank * n + *peer)] += 1;

    // As the suite does it: on the pair's communicator.
    const QpInfo got = exchange_qp_info(pair, 1 - me, synthetic(rank, *peer, round));
    check(got == synthetic(*peer, rank, round), "QP info from rank " + std::to_string(*peer) + " differs in round " + std::to_string(round));
    // And on the world communicator, by world rank.
    const QpInfo again = exchange_qp_info(MPI_COMM_WORLD, *peer, synthetic(rank, *peer, round + 100));
    check(again == synthetic(*peer, rank, round + 100), "QP info over the world communicator differs");
    // State: one side fails (the higher rank in odd rounds) with a long reason.
    const bool i_fail = round % 2 == 1 && rank > *peer;
    const PeerStatus st = exchange_status(pair, 1 - me, {!i_fail, message_from(rank, *peer)});
    const bool they_fail = round % 2 == 1 && *peer > rank;
    check(st.ok == !they_fail, "peer state flag");
    check(st.message == message_from(*peer, rank), "peer state message");
    const PeerStatus empty = exchange_status(pair, 1 - me, {true, ""});
    check(empty.ok && empty.message.empty(), "empty state message");
    exchanges += 4;
    MPI_Comm_free(&pair);
  }
  MPI_Allreduce(MPI_IN_PLACE, met.data(), n * n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      check(met[static_cast<size_t>(a * n + b)] == (a == b ? 0 : 1),
            "ranks " + std::to_string(a) + " and " + std::to_string(b) + " met " + std::to_string(met[static_cast<size_t>(a * n + b)]) + " times");
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &exchanges, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    if (bad == 0) std::printf("ok: %d ranks, %zu rounds, %d exchanges\n", n, rounds.size(), exchanges);
    else std::printf("FAIL: %d problems\n", bad);
  }
  MPI_Finalize();
  return bad == 0 ? 0 : 1;
}
