// The `rdma` suite: RDMA WRITE bandwidth and latency between pairs of ranks over libibverbs RC queue
// pairs (RoCE or InfiniBand), with the GID chosen per rank, QP information exchanged over MPI, and
// every figure next to its ceiling. Without a usable device it reports `skipped` with the reason.
//
// Device choice: --rdma-dev; else, for a rank with a GPU, the RDMA NIC nearest to it in the topology
// model; else the first ACTIVE port. --rdma-dev with a list or "all": one rail per port (rails.hpp),
// rail k of every rank paired with rail k of the others, the rails one after another. Pairs: the first two ranks (pair mode), or every pair in rounds
// of disjoint pairs from the scheduler the TCP suite uses (matrix mode).
#include <algorithm>
#include <optional>
#include <vector>

#include "bench/suites/rdma/discovery_json.hpp"
#include "bench/suites/rdma/engine.hpp"
#include "bench/suites/rdma/pair_session.hpp"
#include "bench/suites/rdma/plan.hpp"
#include "bench/suites/rdma/rails.hpp"
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

// Every rank's `mine`, on every rank.
std::vector<std::string> rdma_allgather_text(const MpiContext& mpi, const std::string& mine) {
  const int n = mpi.size;
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(static_cast<size_t>(n)), offsets(static_cast<size_t>(n), 0);
  MPI_Allgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, mpi.world);
  for (int r = 1; r < n; ++r) offsets[static_cast<size_t>(r)] = offsets[static_cast<size_t>(r - 1)] + lens[static_cast<size_t>(r - 1)];
  std::string all(static_cast<size_t>(offsets.back() + lens.back()), '\0');
  MPI_Allgatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offsets.data(), MPI_CHAR, mpi.world);
  std::vector<std::string> out;
  for (size_t r = 0; r < static_cast<size_t>(n); ++r) out.push_back(all.substr(static_cast<size_t>(offsets[r]), static_cast<size_t>(lens[r])));
  return out;
}

std::vector<RankSelection> gather_selections(const MpiContext& mpi, const PortSelection& mine) {
  const int n = mpi.size;
  int kind = static_cast<int>(mine.kind);
  std::vector<int> kinds(static_cast<size_t>(n));
  MPI_Allgather(&kind, 1, MPI_INT, kinds.data(), 1, MPI_INT, mpi.world);
  const auto reasons = rdma_allgather_text(mpi, mine.reason);
  std::vector<RankSelection> out;
  for (size_t r = 0; r < static_cast<size_t>(n); ++r) out.push_back({static_cast<PortSelection::Kind>(kinds[r]), reasons[r]});
  return out;
}

// Several rails: every rank's "dev:port" per rail, paired rail by rail (an error when the counts differ).
rdma::RailPairing gather_rails(const MpiContext& mpi, const std::vector<PortSelection>& mine) {
  std::string joined;
  for (const auto& s : mine) joined += (joined.empty() ? "" : ",") + s.device + ":" + std::to_string(s.port);
  std::vector<std::vector<std::string>> per_rank;
  for (const auto& text : rdma_allgather_text(mpi, joined)) {
    std::vector<std::string> ports;
    for (size_t start = 0; start < text.size();) {
      const size_t comma = std::min(text.find(',', start), text.size());
      ports.push_back(text.substr(start, comma - start));
      start = comma + 1;
    }
    per_rank.push_back(ports);
  }
  return rdma::pair_rails(per_rank, mpi.hosts);
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

// Several rails: the pairing of rail k across ranks (emitted as the "rails" record), or nullopt once the
// suite has failed and said why (a rank without its ports, or nodes with different numbers of them).
std::optional<rdma::RailPairing> rails_or_fail(const SuiteContext& ctx, const std::vector<RankSelection>& all,
                                                const std::vector<PortSelection>& mine) {
  const auto& mpi = ctx.mpi;
  const bool every_rank_uses = std::all_of(all.begin(), all.end(), [](const RankSelection& s) { return s.kind == PortSelection::Kind::use; });
  if (!every_rank_uses) {
    if (mpi.is_root()) ctx.emit(suite_note(ctx, report::Status::failed, "rdma rails: " + common_reason(mpi, all)));
    return std::nullopt;
  }
  auto pairing = gather_rails(mpi, mine);
  if (!pairing.error.empty()) {
    if (mpi.is_root()) ctx.emit(suite_note(ctx, report::Status::failed, pairing.error));
    return std::nullopt;
  }
  if (mpi.is_root()) {
    auto r = ctx.record("rdma", "rails");
    r.extra["rails"] = pairing.ports;  // [rail][rank] = "dev:port"
    r.extra["plan"] = rdma::rail_plan_lines(pairing, mpi.hosts);
    r.extra["order"] = "one rail after another";
    ctx.emit(r);
  }
  return pairing;
}

}  // namespace

void run_rdma_suite(const SuiteContext& ctx) {
  const auto& mpi = ctx.mpi;
  rdma::RdmaDevRequest request;
  (void)rdma::parse_rdma_devs(ctx.cfg.rdma_dev, request);  // checked when the options were read
  rdma::LocalChoice local;
  rdma::Discovery discovery;
  std::vector<PortSelection> rails;
  {
    Step guard(ctx.control, "rdma discover");
    discovery = rdma::discover_devices(local.sys_root);
    local.discovery = &discovery;
    if (request.several()) {
      rails = rdma::select_rails(discovery, request.all ? rdma::active_ports_in_sysfs(local.sys_root) : request.names);
      local.selection = rails.front();
    } else {
      local.selection = choose_port(ctx, discovery);
    }
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
  std::optional<rdma::RailPairing> pairing;
  if (request.several()) {
    pairing = rails_or_fail(ctx, all, rails);
    if (!pairing) return;
  }

  const auto rounds = ctx.cfg.rdma_mode == "matrix" ? all_pairs_rounds(mpi.size) : std::vector<Round>{first_pair(mpi)};
  const auto plan = rdma::build_plan(ctx.cfg, GPUNET_HAVE_CUDA != 0);
  const size_t passes = pairing ? pairing->ports.size() : 1;
  StepProgress steps(ctx);
  steps.plan(static_cast<int>(passes * rounds.size() * plan.size()));  // their lengths follow the adaptive iteration counts
  for (size_t k = 0; k < passes; ++k) {
    if (pairing) {  // the rails run one after another, each with its own queue pairs
      local.selection = rails[k];
      local.rail = static_cast<int>(k);
      local.rail_ports = pairing->ports[k];
    }
    for (const auto& round : rounds) {
      const Seat seat = seat_in(round, mpi.rank);
      MPI_Comm pair_comm = MPI_COMM_NULL;
      MPI_Comm_split(mpi.world, seat.color, mpi.rank, &pair_comm);
      const int peer = seat.partner.value_or(-1);
      std::string label = seat.partner ? std::to_string(std::min(mpi.rank, peer)) + "<->" + std::to_string(std::max(mpi.rank, peer)) : "";
      if (pairing && !label.empty()) label += " rail " + std::to_string(k);
      rdma::PairSession(ctx, pair_comm, peer, local, label).run(plan, steps);
      if (pair_comm != MPI_COMM_NULL) MPI_Comm_free(&pair_comm);
    }
  }
}

}  // namespace gpunet::bench
