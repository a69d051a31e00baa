#include "bench/suites/rdma/pair_session.hpp"

#include <algorithm>
#include <functional>

#include "bench/core/sizes.hpp"
#include "report/analysis/path_ceilings.hpp"

namespace gpunet::bench::rdma {

using gpunet::json;

PairSession::PairSession(const SuiteContext& ctx, MPI_Comm pair_comm, int peer_world_rank, const LocalChoice& local,
                         std::string label)
    : ctx_(ctx), comm_(pair_comm), peer_(peer_world_rank), local_(local), label_(std::move(label)) {
  if (comm_ != MPI_COMM_NULL) {
    int me = 0;
    MPI_Comm_rank(comm_, &me);
    peer_in_comm_ = 1 - me;
    role_ = ctx_.mpi.rank < peer_ ? 0 : 1;
  }
}

void PairSession::run(const std::vector<PlanStep>& plan, StepProgress& steps) {
  for (const auto& s : plan) {
    steps.start_paced(comm_ == MPI_COMM_NULL ? "idle" : step_label(s));
    if (comm_ == MPI_COMM_NULL || (s.kind != PlanStep::Kind::connect && !live_)) {
      idle_step(comm_ == MPI_COMM_NULL ? "rdma idle" : step_name(s) + " (not connected)");
      idle_step(comm_ == MPI_COMM_NULL ? "rdma idle" : step_name(s) + " (not connected)");
    } else if (s.kind == PlanStep::Kind::connect) {
      connect(s);
    } else {
      measure(s);
    }
  }
  ep_.reset();
}

void PairSession::idle_step(const std::string& name) const { Step guard(ctx_.control, name); }

std::string PairSession::step_label(const PlanStep& s) const {
  std::string n = label_ + " " + to_string(s.kind);
  if (s.kind != PlanStep::Kind::connect) n += " " + format_size(s.bytes);
  return n + " " + to_string(s.memory);
}

std::string PairSession::step_name(const PlanStep& s) const { return "rdma " + step_label(s); }

double PairSession::deadline_s() const { return std::clamp(0.3 * ctx_.cfg.timeout_s, 0.5, 30.0); }

PairSession::Outcome PairSession::agree(const Outcome& mine, json payload, json* peer_payload) {
  const json out = {{"kind", mine.kind}, {"reason", mine.reason}, {"payload", std::move(payload)}};
  const PeerStatus got = exchange_status(comm_, peer_in_comm_, {mine.ok, out.dump()});
  json theirs = json::parse(got.message, nullptr, false);
  if (theirs.is_discarded() || !theirs.is_object()) theirs = {{"kind", "fail"}, {"reason", "unreadable state from the peer"}};
  if (peer_payload) *peer_payload = theirs.value("payload", json());

  Outcome pair;
  const std::string their_kind = theirs.value("kind", "fail");
  pair.ok = mine.ok && got.ok && their_kind == "ok";
  pair.kind = mine.kind == "fail" || their_kind == "fail" ? "fail" : pair.ok ? "ok" : "skip";
  auto line = [&](int rank, const std::string& kind, const std::string& why) {
    if (kind == "ok") return;
    pair.reason += (pair.reason.empty() ? "" : "; ") + ctx_.mpi.describe_rank(rank) + ": " + why;
  };
  const bool me_first = ctx_.mpi.rank < peer_;
  line(me_first ? ctx_.mpi.rank : peer_, me_first ? mine.kind : their_kind, me_first ? mine.reason : theirs.value("reason", ""));
  line(me_first ? peer_ : ctx_.mpi.rank, me_first ? their_kind : mine.kind, me_first ? theirs.value("reason", "") : mine.reason);
  return pair;
}

report::Record PairSession::base_record(const PlanStep& s) const {
  auto r = ctx_.record("rdma", to_string(s.kind));
  const bool one_way = s.kind == PlanStep::Kind::bandwidth;
  const std::string a = std::to_string(std::min(ctx_.mpi.rank, peer_)), b = std::to_string(std::max(ctx_.mpi.rank, peer_));
  r.variant = a + (one_way ? "->" : "<->") + b + " " + to_string(s.memory);
  r.bytes = s.bytes;
  r.ranks = 2;
  r.extra["pair"] = {{"ranks", {std::min(ctx_.mpi.rank, peer_), std::max(ctx_.mpi.rank, peer_)}},
                     {"hosts", {ctx_.mpi.hosts[static_cast<size_t>(std::min(ctx_.mpi.rank, peer_))],
                                ctx_.mpi.hosts[static_cast<size_t>(std::max(ctx_.mpi.rank, peer_))]}}};
  r.extra["memory"] = to_string(s.memory);
  r.extra["mode"] = ctx_.cfg.rdma_mode;
  if (local_.rail >= 0) {
    r.variant += " rail " + std::to_string(local_.rail);
    add_rail(r);
  }
  return r;
}

void PairSession::emit(report::Record r) const {
  if (role_ == 0) ctx_.emit(r);
}

void PairSession::connect(const PlanStep& s) {
  ep_.reset();
  live_ = false;
  me_ = peer_facts_ = SideFacts{};
  Outcome mine, pair;
  json peer_payload;
  QpInfo local_qp{}, remote_qp{};
  {
    Step guard(ctx_.control, step_name(s));
    const auto& sel = local_.selection;
    EndpointConfig ec;
    ec.sys_root = local_.sys_root;
    ec.device = sel.device;
    ec.port = sel.port;
    ec.gid = {ctx_.cfg.gid_index, ctx_.cfg.rdma_ipv6};
    const int64_t largest = std::max(ctx_.cfg.rdma_size, std::min(ctx_.cfg.max_bytes, kMaxMessageBytes));
    ec.half_bytes = static_cast<size_t>((largest + 4095) / 4096 * 4096);
    ec.memory = s.memory;
    ec.numa_node = sel.entry ? sel.entry->pci.numa_node : -1;
    ec.tx_depth = ctx_.cfg.rdma_tx_depth;
    ec.deadline_s = deadline_s();
    ec.psn_seed = static_cast<uint32_t>(ctx_.mpi.rank + 1);
    if (sel.kind != PortSelection::Kind::use) mine = {false, sel.kind == PortSelection::Kind::skip ? "skip" : "fail", sel.reason};
    if (mine.ok && s.memory == MemoryKind::cuda) {
      std::string why;
      ec.cuda_device = cuda_device_for_local_rank(ctx_.mpi.local_rank, why);
      if (ec.cuda_device < 0) mine = {false, "skip", why};
    }
    if (mine.ok) {
      std::string err;
      ep_ = open_endpoint(ec, err);
      if (!ep_) mine = {false, "fail", err};
    }
    json payload;
    if (ep_) {
      me_ = side_facts(ctx_.mpi.rank, ctx_.mpi.host, sel, ep_->facts(), local_.sys_root);
      ep_->buffer().fill(static_cast<uint32_t>(ctx_.mpi.rank), 0, ec.half_bytes);
      payload = me_;
    }
    pair = agree(mine, payload, &peer_payload);
    if (pair.ok) {
      if (peer_payload.is_object()) peer_facts_ = peer_payload.get<SideFacts>();
      local_qp = ep_->local_info();
      remote_qp = exchange_qp_info(comm_, peer_in_comm_, local_qp);
      ep_->connect(remote_qp);
    }
  }
  {
    Step guard(ctx_.control, step_name(s) + " agree");
    Outcome second;
    if (!pair.ok) second = {false, pair.kind, "not connected"};
    else if (ep_->failed()) second = {false, "fail", ep_->error()};
    const Outcome fin = agree(second, json(), nullptr);
    if (pair.ok) pair = fin;
  }
  live_ = pair.ok;
  if (!live_) ep_.reset();

  auto r = base_record(s);
  r.name = s.memory == MemoryKind::cuda ? "gpudirect" : "connect";
  r.status = pair.ok ? report::Status::passed : pair.kind == "skip" ? report::Status::skipped : report::Status::failed;
  r.reason = pair.reason;
  if (!me_.device.empty() || !peer_facts_.device.empty()) r.extra["sides"] = {me_, peer_facts_};
  if (pair.ok) {
    r.extra["qp"] = {{"local", {{"qpn", local_qp.qpn}, {"psn", local_qp.psn}, {"lid", local_qp.lid}, {"gid_index", local_qp.gid_index}}},
                     {"remote", {{"qpn", remote_qp.qpn}, {"psn", remote_qp.psn}, {"lid", remote_qp.lid}, {"gid_index", remote_qp.gid_index}}},
                     {"path_mtu", std::min(local_qp.mtu, remote_qp.mtu)}};
    if (s.memory == MemoryKind::cuda)
      r.extra["registration"] = {me_.registration + (me_.registration_notes.empty() ? "" : " (" + me_.registration_notes + ")"),
                                 peer_facts_.registration + (peer_facts_.registration_notes.empty() ? "" : " (" + peer_facts_.registration_notes + ")")};
  }
  emit(r);
}

void PairSession::measure(const PlanStep& s) {
  using K = PlanStep::Kind;
  const bool bidir = s.kind == K::bidir, lat = s.kind == K::latency;
  const int count = lat ? 1 : writes_per_op(s.bytes);
  Endpoint& ep = *ep_;
  std::function<void()> op;
  if (lat && role_ == 0) op = [&] { if (ep.ping(s.bytes)) ep.wait_immediate(); };
  else if (lat) op = [&] { if (ep.wait_immediate()) ep.ping(s.bytes); };
  else if (bidir) op = [&] { if (ep.write_burst(s.bytes, count)) ep.wait_immediate(); };
  else if (role_ == 0) op = [&] { ep.write_burst(s.bytes, count); };
  else op = [&] { ep.wait_immediate(); };
  const measure::Timing timing = ctx_.runner.time_op(step_name(s), comm_, op);

  Outcome pair;
  int64_t wrong = 0;
  bool checked = false;
  {
    Step guard(ctx_.control, step_name(s) + " agree");
    auto state = [&] { return ep.failed() ? Outcome{false, "fail", ep.error()} : Outcome{}; };
    pair = agree(state(), json(), nullptr);
    if (pair.ok && ctx_.cfg.check && !lat) {
      const bool receive = bidir || role_ == 1, send = bidir || role_ == 0;
      const size_t half = ep.half_bytes();
      if (receive) ep.buffer().clear(half, static_cast<size_t>(s.bytes));
      agree({}, json(), nullptr);  // the target is clear before anything is written
      if (send) ep.write_burst(s.bytes, 1);
      if (receive && ep.wait_immediate()) wrong = ep.buffer().count_wrong(static_cast<uint32_t>(peer_), half, static_cast<size_t>(s.bytes));
      json peer_wrong;
      pair = agree(state(), {{"wrong", wrong}}, &peer_wrong);
      wrong += peer_wrong.value("wrong", int64_t{0});
      checked = pair.ok;
    }
  }
  if (!pair.ok) {
    live_ = false;
    ep_.reset();
  }

  auto r = base_record(s);
  r.count = count;
  r.extra["writes_per_op"] = count;
  r.extra["tx_depth"] = ctx_.cfg.rdma_tx_depth;
  if (s.headline) r.extra["headline"] = true;
  if (!pair.ok) {
    r.status = report::Status::failed;
    r.reason = pair.reason;
    emit(r);
    return;
  }
  if (checked) {
    r.check = wrong == 0 ? "ok" : "wrong";
    r.wrong = wrong;
    if (wrong) {
      r.status = report::Status::failed;
      r.reason = std::to_string(wrong) + " wrong bytes at the receiving end after RDMA WRITE";
    }
  }
  if (lat) {
    measure::Timing one_way = timing;
    for (double& v : one_way.samples_us) v /= 2;
    measure::record_timing(r, one_way);
    r.extra["latency"] = "half the round trip of a WRITE-with-immediate ping-pong";
    r.figure = report::time_figure("rdma.write.latency", r.time_us.p50, pair_subject());
    r.figure->samples = measure::batch_means_us(r);
    r.figure->parameters = {{"bytes", std::to_string(s.bytes)}, {"memory", to_string(s.memory)}};
  add_rail(r);
    emit(r);
    return;
  }
  measure::record_timing(r, timing);
  const double bytes_per_op = static_cast<double>(s.bytes) * count * (bidir ? 2 : 1);
  r.algbw_GBps = r.time_us.mean > 0 ? bytes_per_op / (r.time_us.mean * 1e3) : 0;  // all bytes moved
  r.busbw_GBps = r.algbw_GBps;
  // bw_Gbps is per direction, so that it compares with the port's (per-direction) ceiling.
  const double per_direction = r.algbw_GBps * 8 / (bidir ? 2 : 1);
  r.extra["bw_Gbps"] = per_direction;
  r.extra["bw_peak_Gbps"] = r.time_us.min > 0 ? bytes_per_op * 8 / (r.time_us.min * 1e3) / (bidir ? 2 : 1) : 0;
  if (bidir) r.extra["bw_both_directions_Gbps"] = r.algbw_GBps * 8;
  if (s.headline && (s.memory == MemoryKind::host || ctx_.cfg.rdma_mem == "cuda")) {
    // The headline cell of the host-pair matrix (report/render/html_charts).
    r.extra["src_host"] = ctx_.mpi.hosts[static_cast<size_t>(std::min(ctx_.mpi.rank, peer_))];
    r.extra["dst_host"] = ctx_.mpi.hosts[static_cast<size_t>(std::max(ctx_.mpi.rank, peer_))];
  }
  r.figure = report::rate_figure("rdma.write.bw", per_direction, "Gb/s", pair_subject(), report::PathModel::rdma_port);
  // The rate is bytes / mean time, so each batch's rate scales with 1 / its mean time.
  r.figure->samples = report::rates_per_batch(per_direction, r.time_us.mean, measure::batch_means_us(r));
  r.figure->parameters = {{"bytes", std::to_string(s.bytes)}, {"memory", to_string(s.memory)}};
  add_rail(r);
  if (bidir) r.figure->parameters["direction"] = "bidirectional";
  attach_ceiling(r);
  emit(r);
}

// The path the analysis judges the figure by (report::rdma_ceiling of extra.rdma): the port of the
// end whose ceiling is lower (the bottleneck), or of the end whose ceiling is unknown.
void PairSession::attach_ceiling(report::Record& r) const {
  const json mine = ceiling_inputs(me_), theirs = ceiling_inputs(peer_facts_);
  const report::Ceiling a = report::rdma_ceiling(mine), b = report::rdma_ceiling(theirs);
  const bool peer_binds = a.known && (!b.known || b.value < a.value);
  r.extra["rdma"] = peer_binds ? theirs : mine;
  r.extra["rdma_binding_end"] = ctx_.mpi.describe_rank(peer_binds ? peer_facts_.rank : me_.rank);
}

void PairSession::add_rail(report::Record& r) const {
  if (local_.rail < 0) return;
  r.extra["rail"] = local_.rail;
  if (r.figure) r.figure->parameters["rail"] = std::to_string(local_.rail);
}

report::Subject PairSession::pair_subject() const {
  const int lo = std::min(ctx_.mpi.rank, peer_), hi = std::max(ctx_.mpi.rank, peer_);
  if (local_.rail >= 0) {
    const auto& ports = local_.rail_ports;
    return report::rail_pair_subject(ctx_.mpi.hosts[static_cast<size_t>(lo)], lo, ports.at(static_cast<size_t>(lo)),
                                     ctx_.mpi.hosts[static_cast<size_t>(hi)], hi, ports.at(static_cast<size_t>(hi)));
  }
  return report::pair_subject(ctx_.mpi.hosts[static_cast<size_t>(lo)], lo, ctx_.mpi.hosts[static_cast<size_t>(hi)], hi);
}

}  // namespace gpunet::bench::rdma
