// The `rdma` suite: RDMA WRITE bandwidth and latency between pairs of ranks over libibverbs RC queue
// pairs (RoCE or InfiniBand), with the GID chosen per rank, QP information exchanged over MPI, and
// every figure next to its ceiling. Without a usable device it reports `skipped` with the reason.
//
// Device choice: --rdma-dev; else, for a rank with a GPU, the RDMA NIC nearest to it in the topology
// model; else the first ACTIVE port. Pairs: the first two ranks (pair mode), or every pair in rounds
// of disjoint pairs from the scheduler the TCP suite uses (matrix mode).
#include <algorithm>
#include <optional>
#include <vector>

#include "bench/suites/rdma/discovery_json.hpp"
#include "bench/suites/rdma/engine.hpp"
#include "bench/suites/rdma/pair_session.hpp"
#include "bench/suites/rdma/plan.hpp"
#include "bench/suites/rdma/suite_entry.hpp"
#include "bench/core/step_progress.hpp"
#include "bench/engines/pair_schedule.hpp"
#include "gpunet/build_config.h"
#include "topology/topology.hpp"

namespace gpunet::bench {

namespace {

using rdma::PortSelection;

// Every rank's selection kind and reason, on every rank.
struct RankSelection {
  PortSelection::Kind kind;
  std::string reason;
};

std::vector<RankSelection> gather_selections(const MpiContext& mpi, const PortSelection& mine) {
  const int n = mpi.size;
  int kind = static_cast<int>(mine.kind), len = static_cast<int>(mine.reason.size());
  std::vector<int> kinds(static_cast<size_t>(n)), lens(static_cast<size_t>(n)), offsets(static_cast<size_t>(n), 0);
  MPI_Allgather(&kind, 1, MPI_INT, kinds.data(), 1, MPI_INT, mpi.world);
  MPI_Allgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, mpi.world);
  for (int r = 1; r < n; ++r) offsets[static_cast<size_t>(r)] = offsets[static_cast<size_t>(r - 1)] + lens[static_cast<size_t>(r - 1)];
  std::string all(static_cast<size_t>(offsets.back() + lens.back()), '\0');
  MPI_Allgatherv(mine.reason.data(), len, MPI_CHAR, all.data(), lens.data(), offsets.data(), MPI_CHAR, mpi.world);
  std::vector<RankSelection> out;
  for (size_t r = 0; r < static_cast<size_t>(n); ++r)
    out.push_back({static_cast<PortSelection::Kind>(kinds[r]), all.substr(static_cast<size_t>(offsets[r]), static_cast<size_t>(lens[r]))});
  return out;
}

// "no RDMA devices" when every rank says the same; else each rank with its reason.
std::string common_reason(const MpiContext& mpi, const std::vector<RankSelection>& all) {
  const bool same = std::all_of(all.begin(), all.end(), [&](const RankSelection& s) { return s.reason == all.front().reason; });
  if (same) return all.front().reason;
  std::string out;
  for (size_t r = 0; r < all.size(); ++r) out += (r ? "; " : "") + mpi.describe_rank(static_cast<int>(r)) + ": " + all[r].reason;
  return out;
}

// Pair mode: rank 0 and the first rank on another node, else rank 1.
Round first_pair(const MpiContext& mpi) {
  for (int r = 1; r < mpi.size; ++r)
    if (mpi.node_of_rank[static_cast<size_t>(r)] != mpi.node_of_rank[0]) return {{0, r}};
  return {{0, 1}};
}

// This rank's place in a round: its partner and the index of its pair (the communicator's colour).
struct Seat {
  std::optional<int> partner;
  int color = MPI_UNDEFINED;
};
Seat seat_in(const Round& round, int rank) {
  for (size_t i = 0; i < round.size(); ++i) {
    if (round[i].a == rank) return {round[i].b, static_cast<int>(i)};
    if (round[i].b == rank) return {round[i].a, static_cast<int>(i)};
  }
  return {};
}

// --rdma-dev; else the NIC nearest to this rank's GPU; else the first ACTIVE port.
PortSelection choose_port(const SuiteContext& ctx, const rdma::Discovery& d) {
  if (!ctx.cfg.rdma_dev.empty() || d.devices.empty()) return rdma::select_port(d, ctx.cfg.rdma_dev);
  std::string no_gpu;
  const int gpu = rdma::cuda_device_for_local_rank(ctx.mpi.local_rank, no_gpu);
  if (gpu < 0) return rdma::select_port(d, "");
  try {
    return rdma::select_port_near_gpu(d, topo::discover_local(), gpu);
  } catch (const std::exception& e) {
    PortSelection s = rdma::select_port(d, "");
    if (s.kind == PortSelection::Kind::use) s.reason = std::string("topology discovery failed (") + e.what() + "); first ACTIVE port";
    return s;
  }
}

report::Record suite_note(const SuiteContext& ctx, report::Status status, const std::string& reason) {
  auto r = ctx.record("rdma", "rdma");
  r.status = status;
  r.reason = reason;
  return r;
}

}  // namespace

void run_rdma_suite(const SuiteContext& ctx) {
  const auto& mpi = ctx.mpi;
  rdma::LocalChoice local;
  rdma::Discovery discovery;
  {
    Step guard(ctx.control, "rdma discover");
    discovery = rdma::discover_devices(local.sys_root);
    local.discovery = &discovery;
    local.selection = choose_port(ctx, discovery);
  }
  const auto all = gather_selections(mpi, local.selection);

  if (mpi.local_rank == 0 && !discovery.devices.empty()) {
    auto r = ctx.record("rdma", "devices");
    r.variant = mpi.host;
    r.extra["devices"] = rdma::discovery_json(discovery, local.sys_root);
    const auto& sel = local.selection;
    r.extra["selection"] = {{"kind", sel.kind == PortSelection::Kind::use ? "use" : sel.kind == PortSelection::Kind::skip ? "skip" : "fail"},
                            {"device", sel.device},
                            {"port", sel.port},
                            {"reason", sel.reason},
                            {"gpu_index", sel.gpu_index},
                            {"gpu_nic_path", sel.gpu_nic_path}};
    ctx.emit(r);
  }
  const bool none_usable = std::none_of(all.begin(), all.end(), [](const RankSelection& s) { return s.kind != PortSelection::Kind::skip; });
  if (none_usable) {
    if (mpi.is_root()) ctx.emit(suite_note(ctx, report::Status::skipped, common_reason(mpi, all)));
    return;
  }
  if (mpi.size < 2) {
    if (mpi.is_root()) ctx.emit(suite_note(ctx, report::Status::skipped, "the rdma suite needs at least 2 ranks"));
    return;
  }

  const auto rounds = ctx.cfg.rdma_mode == "matrix" ? all_pairs_rounds(mpi.size) : std::vector<Round>{first_pair(mpi)};
  const auto plan = rdma::build_plan(ctx.cfg, GPUNET_HAVE_CUDA != 0);
  StepProgress steps(ctx);
  steps.plan(static_cast<int>(rounds.size() * plan.size()));  // their lengths follow the adaptive iteration counts
  for (const auto& round : rounds) {
    const Seat seat = seat_in(round, mpi.rank);
    MPI_Comm pair_comm = MPI_COMM_NULL;
    MPI_Comm_split(mpi.world, seat.color, mpi.rank, &pair_comm);
    const int peer = seat.partner.value_or(-1);
    const std::string label = seat.partner ? std::to_string(std::min(mpi.rank, peer)) + "<->" + std::to_string(std::max(mpi.rank, peer)) : "";
    rdma::PairSession(ctx, pair_comm, peer, local, label).run(plan, steps);
    if (pair_comm != MPI_COMM_NULL) MPI_Comm_free(&pair_comm);
  }
}

}  // namespace gpunet::bench
