// The `mpi` suite: MPI collectives on host memory, swept over sizes, with nccl-tests' algbw/busbw
// and verified data. Also the CPU-only fallback that keeps a report useful on nodes without GPUs.
#include <cstdint>
#include <vector>

#include "bench/core/sizes.hpp"
#include "bench/suites/mpi/suite.hpp"
#include "bench/engines/patterns.hpp"
#include "report/model/busbw.hpp"

namespace gpunet::bench {

namespace {

using report::Collective;

template <typename T> MPI_Datatype mpi_type();
template <> MPI_Datatype mpi_type<float>() { return MPI_FLOAT; }
template <> MPI_Datatype mpi_type<double>() { return MPI_DOUBLE; }
template <> MPI_Datatype mpi_type<int32_t>() { return MPI_INT32_T; }
template <> MPI_Datatype mpi_type<int64_t>() { return MPI_INT64_T; }

MPI_Op mpi_op(const std::string& op) { return op == "max" ? MPI_MAX : op == "min" ? MPI_MIN : MPI_SUM; }

template <typename T>
class CollectiveCase {
 public:
  // Broadcast runs in place on the send buffer, so it needs no receive buffer.
  CollectiveCase(Collective c, const patterns::Shape& s, const SuiteContext& ctx)
      : c_(c), s_(s), ctx_(ctx), comm_(ctx.mpi.world), type_(mpi_type<T>()), op_(mpi_op(ctx.cfg.op)),
        count_(static_cast<int>(s.count)), send_(static_cast<size_t>(s.send_elems)),
        recv_(static_cast<size_t>(c == Collective::broadcast ? 0 : s.recv_elems)) {}

  void init() {
    const int r = ctx_.mpi.rank, n = ctx_.mpi.size;
    for (int64_t i = 0; i < s_.send_elems; ++i)
      send_[static_cast<size_t>(i)] = static_cast<T>(patterns::send_value(c_, n, r, s_.count, i));
    std::fill(recv_.begin(), recv_.end(), static_cast<T>(-7));
  }

  // The timed calls, `iters` of them in a loop as a bare benchmark loop would call them: what they
  // pass is worked out once, in the constructor, and held in locals here, and the collective is
  // chosen once per batch, not per call.
  void run(int iters = 1) {
    T* send = send_.data();
    T* recv = recv_.data();
    const int count = count_;
    const MPI_Datatype type = type_;
    const MPI_Op op = op_;
    const MPI_Comm comm = comm_;
    switch (c_) {
      case Collective::allreduce:
        for (int i = 0; i < iters; ++i) MPI_Allreduce(send, recv, count, type, op, comm);
        break;
      case Collective::allgather:
        for (int i = 0; i < iters; ++i) MPI_Allgather(send, count, type, recv, count, type, comm);
        break;
      case Collective::reduce_scatter:
        for (int i = 0; i < iters; ++i) MPI_Reduce_scatter_block(send, recv, count, type, op, comm);
        break;
      case Collective::broadcast:
        for (int i = 0; i < iters; ++i) MPI_Bcast(send, count, type, 0, comm);
        break;
      case Collective::alltoall:
        for (int i = 0; i < iters; ++i) MPI_Alltoall(send, count, type, recv, count, type, comm);
        break;
      default: break;
    }
  }

  // Wrong elements on this rank.
  int64_t wrong() const {
    const int r = ctx_.mpi.rank, n = ctx_.mpi.size;
    const std::vector<T>& out = c_ == Collective::broadcast ? send_ : recv_;
    int64_t bad = 0;
    for (size_t i = 0; i < out.size(); ++i)
      bad += static_cast<double>(out[i]) != patterns::expected(c_, ctx_.cfg.op, n, r, s_.count, static_cast<int64_t>(i));
    return bad;
  }

 private:
  Collective c_;
  patterns::Shape s_;
  const SuiteContext& ctx_;
  MPI_Comm comm_;
  MPI_Datatype type_;
  MPI_Op op_;
  int count_;
  std::vector<T> send_, recv_;
};

template <typename T>
void sweep(Collective c, const SuiteContext& ctx, int& done, int total) {
  const auto& cfg = ctx.cfg;
  const int n = ctx.mpi.size;
  for (int64_t bytes : size_sweep(cfg.min_bytes, cfg.max_bytes, cfg.step_factor, cfg.step_bytes)) {
    if (ctx.mpi.is_root()) ctx.progress(to_string(c), bytes, done++, total);
    auto rec = ctx.record("mpi", to_string(c));
    rec.variant = "out-of-place";
    rec.dtype = cfg.dtype;
    rec.op = (c == Collective::allreduce || c == Collective::reduce_scatter) ? cfg.op : "none";
    const patterns::Shape s = patterns::shape(c, bytes, sizeof(T), n, ctx.mpi.rank);
    rec.count = s.count;
    rec.bytes = s.size_bytes;
    if (s.count == 0) {
      rec.bytes = bytes;
      rec.status = report::Status::skipped;
      rec.reason = "size " + std::to_string(bytes) + " B is smaller than one " + cfg.dtype + " per rank";
      if (ctx.mpi.is_root()) ctx.emit(rec);
      continue;
    }
    CollectiveCase<T> op(c, s, ctx);
    op.init();
    const auto timing = ctx.runner.time_batch("mpi " + to_string(c) + " " + format_size(rec.bytes), ctx.mpi.world, [&](int iters) { op.run(iters); });
    measure::record_timing(rec, timing);
    rec.algbw_GBps = report::algbw_GBps(rec.bytes, rec.time_us.mean * 1e-6);
    rec.busbw_GBps = report::busbw_GBps(c, rec.bytes, rec.time_us.mean * 1e-6, n);
    rec.extra["reduction"] = to_string(cfg.reduction);
    rec.extra["nodes"] = ctx.mpi.num_nodes;
    rec.figure = report::collective_figure("mpi", "host", rec, report::cluster_subject(ctx.mpi.num_nodes), timing.samples_us);
    if (cfg.check) {
      Step verify(ctx.control, "mpi " + to_string(c) + " " + format_size(rec.bytes) + " verify");
      op.init();
      op.run();
      int64_t wrong = op.wrong();
      MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT64_T, MPI_SUM, ctx.mpi.world);
      rec.wrong = wrong;
      rec.check = wrong == 0 ? "ok" : "wrong";
      if (wrong) {
        rec.status = report::Status::failed;
        rec.reason = std::to_string(wrong) + " wrong elements after " + to_string(c);
      }
    }
    if (ctx.mpi.is_root()) ctx.emit(rec);
  }
}

template <typename T>
void run_typed(const SuiteContext& ctx) {
  const auto& cfg = ctx.cfg;
  int done = 0;
  const int total = static_cast<int>(cfg.collectives.size() * size_sweep(cfg.min_bytes, cfg.max_bytes, cfg.step_factor, cfg.step_bytes).size());
  for (const auto& name : cfg.collectives) sweep<T>(*report::collective_from_string(name), ctx, done, total);
}

// A collective over one rank moves nothing between ranks: its time is a local copy, and a busbw
// from it (0 for allreduce, a memcpy rate for broadcast) would read as a network figure. Each
// collective is one skipped record with the reason instead.
void skip_one_rank(const SuiteContext& ctx) {
  for (const auto& name : ctx.cfg.collectives) {
    auto rec = ctx.record("mpi", name);
    rec.variant = "out-of-place";
    rec.dtype = ctx.cfg.dtype;
    rec.status = report::Status::skipped;
    rec.reason = "one rank: a collective over one rank moves no data between ranks, so it has no figure; run 2 or more ranks";
    ctx.emit(rec);
  }
}

}  // namespace

void run_mpi_suite(const SuiteContext& ctx) {
  if (ctx.mpi.size == 1) return skip_one_rank(ctx);
  const auto& d = ctx.cfg.dtype;
  if (d == "double") run_typed<double>(ctx);
  else if (d == "int32") run_typed<int32_t>(ctx);
  else if (d == "int64") run_typed<int64_t>(ctx);
  else run_typed<float>(ctx);
}

}  // namespace gpunet::bench
