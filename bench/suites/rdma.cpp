// The `rdma` suite: RDMA WRITE bandwidth and latency between pairs of ranks over libibverbs RC queue
// pairs (RoCE or InfiniBand), with the GID chosen per rank, QP information exchanged over MPI, and
// every figure next to its ceiling. Without a usable device it reports `skipped` with the reason.
//
// Device choice: --rdma-dev, else the first ACTIVE port. (The topology model's "nearest RDMA NIC of
// the rank's GPU" takes over once it is on main.)
#include <algorithm>
#include <vector>

#include "bench/rdma/discovery_json.hpp"
#include "bench/rdma/engine.hpp"
#include "bench/rdma/pair_schedule.hpp"
#include "bench/rdma/pair_session.hpp"
#include "bench/rdma/plan.hpp"
#include "bench/suite.hpp"
#include "gpunet/build_config.h"

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
rdma::Round first_pair(const MpiContext& mpi) {
  for (int r = 1; r < mpi.size; ++r)
    if (mpi.node_of_rank[static_cast<size_t>(r)] != mpi.node_of_rank[0]) return {{0, r}};
  return {{0, 1}};
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
  }
  local.discovery = &discovery;
  local.selection = rdma::select_port(discovery, ctx.cfg.rdma_dev);
  const auto all = gather_selections(mpi, local.selection);

  if (mpi.local_rank == 0 && !discovery.devices.empty()) {
    auto r = ctx.record("rdma", "devices");
    r.variant = mpi.host;
    r.extra["devices"] = rdma::discovery_json(discovery, local.sys_root);
    r.extra["selection"] = {{"kind", local.selection.kind == PortSelection::Kind::use ? "use" : local.selection.kind == PortSelection::Kind::skip ? "skip" : "fail"},
                            {"device", local.selection.device},
                            {"port", local.selection.port},
                            {"reason", local.selection.reason}};
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

  const auto rounds = ctx.cfg.rdma_mode == "matrix" ? rdma::round_robin_rounds(mpi.size) : std::vector<rdma::Round>{first_pair(mpi)};
  const auto plan = rdma::build_plan(ctx.cfg, GPUNET_HAVE_CUDA != 0);
  for (const auto& round : rounds) {
    const auto peer = rdma::partner_in(round, mpi.rank);
    int color = MPI_UNDEFINED;
    for (size_t i = 0; i < round.size() && peer; ++i)
      if (round[i].a == mpi.rank || round[i].b == mpi.rank) color = static_cast<int>(i);
    MPI_Comm pair_comm = MPI_COMM_NULL;
    MPI_Comm_split(mpi.world, color, mpi.rank, &pair_comm);
    const std::string label = peer ? std::to_string(std::min(mpi.rank, *peer)) + "<->" + std::to_string(std::max(mpi.rank, *peer)) : "";
    rdma::PairSession(ctx, pair_comm, peer.value_or(-1), local, label).run(plan);
    if (pair_comm != MPI_COMM_NULL) MPI_Comm_free(&pair_comm);
  }
}

}  // namespace gpunet::bench
