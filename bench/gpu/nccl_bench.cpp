#include "bench/gpu/nccl_bench.hpp"

#include <chrono>

#include "bench/gpu/wait.hpp"
#include "bench/runner.hpp"

namespace gpunet::bench::gpu {

namespace {

using report::Collective;

ncclDataType_t nccl_type(const std::string& d) {
  if (d == "double") return ncclFloat64;
  if (d == "int32") return ncclInt32;
  if (d == "int64") return ncclInt64;
  return ncclFloat32;
}

ncclRedOp_t nccl_op(const std::string& op) { return op == "max" ? ncclMax : op == "min" ? ncclMin : ncclSum; }

}  // namespace

NcclCase::NcclCase(Collective c, const std::string& dtype, const std::string& op, int64_t bytes, bool in_place, const NcclComm& comm)
    : c_(c), dtype_(dtype), op_(op), in_place_(in_place), rank_(comm.rank()), n_(comm.size()), es_(patterns::dtype_size(dtype)),
      shape_(patterns::shape(c, bytes, es_, n_, rank_)) {
  cuda_check(cudaSetDevice(comm.device()), "cudaSetDevice");
  const auto send_bytes = static_cast<size_t>(std::max(shape_.send_elems, in_place ? shape_.recv_elems : 0) * es_);
  cuda_check(cudaMalloc(&send_, std::max<size_t>(send_bytes, 1)), "cudaMalloc");
  if (!in_place) cuda_check(cudaMalloc(&recv_, std::max<size_t>(static_cast<size_t>(shape_.recv_elems * es_), 1)), "cudaMalloc");
}

NcclCase::~NcclCase() {
  if (send_) cudaFree(send_);
  if (recv_) cudaFree(recv_);
}

void NcclCase::init() {
  const int64_t count = shape_.count;
  auto send_value = [&](int64_t i) { return patterns::send_value(c_, n_, rank_, count, i); };
  if (in_place_ && c_ == Collective::allgather) {
    // The receive buffer holds this rank's chunk at its offset; the rest is overwritten.
    const auto buf = patterns::encode_buffer(dtype_, shape_.recv_elems, [&](int64_t i) {
      const int64_t j = i - shape_.inplace_offset;
      return j >= 0 && j < count ? patterns::input(rank_, j) : -7.0;
    });
    cuda_check(cudaMemcpy(send_, buf.data(), buf.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
    return;
  }
  const auto send = patterns::encode_buffer(dtype_, shape_.send_elems, send_value);
  cuda_check(cudaMemcpy(send_, send.data(), send.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
  if (recv_) {
    const auto recv = patterns::encode_buffer(dtype_, shape_.recv_elems, [](int64_t) { return -7.0; });
    cuda_check(cudaMemcpy(recv_, recv.data(), recv.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
}

unsigned char* NcclCase::result() const {
  if (!in_place_) return recv_;
  return c_ == Collective::reduce_scatter ? send_ + shape_.inplace_offset * es_ : send_;
}

void NcclCase::enqueue(NcclComm& comm, double timeout_s) {
  const ncclDataType_t t = nccl_type(dtype_);
  const ncclRedOp_t op = nccl_op(op_);
  const auto count = static_cast<size_t>(shape_.count);
  ncclComm_t nc = comm.get();
  cudaStream_t s = comm.stream();
  unsigned char* out = result();
  unsigned char* in = c_ == Collective::allgather && in_place_ ? send_ + shape_.inplace_offset * es_ : send_;
  const std::string what = "nccl " + report::to_string(c_);
  switch (c_) {
    case Collective::allreduce: comm.check(ncclAllReduce(in, out, count, t, op, nc, s), what, timeout_s); break;
    case Collective::allgather: comm.check(ncclAllGather(in, out, count, t, nc, s), what, timeout_s); break;
    case Collective::reduce_scatter: comm.check(ncclReduceScatter(in, out, count, t, op, nc, s), what, timeout_s); break;
    case Collective::broadcast: comm.check(ncclBroadcast(in, out, count, t, 0, nc, s), what, timeout_s); break;
    case Collective::reduce: comm.check(ncclReduce(in, out, count, t, op, 0, nc, s), what, timeout_s); break;
    case Collective::alltoall:
    case Collective::sendrecv: {
      comm.check(ncclGroupStart(), what, timeout_s);
      const auto chunk = static_cast<int64_t>(count) * es_;
      if (c_ == Collective::alltoall) {
        for (int p = 0; p < n_; ++p) {
          comm.check(ncclSend(in + p * chunk, count, t, p, nc, s), what, timeout_s);
          comm.check(ncclRecv(out + p * chunk, count, t, p, nc, s), what, timeout_s);
        }
      } else {
        comm.check(ncclSend(in, count, t, (rank_ + 1) % n_, nc, s), what, timeout_s);
        comm.check(ncclRecv(out, count, t, (rank_ - 1 + n_) % n_, nc, s), what, timeout_s);
      }
      comm.check(ncclGroupEnd(), what, timeout_s);
      break;
    }
  }
}

int64_t NcclCase::wrong() const {
  if (!patterns::checked(c_, rank_)) return 0;
  const int64_t n = c_ == Collective::broadcast || c_ == Collective::reduce || c_ == Collective::allreduce ||
                            c_ == Collective::sendrecv
                        ? shape_.count
                        : shape_.recv_elems;
  std::vector<unsigned char> host(static_cast<size_t>(n * es_));
  cuda_check(cudaMemcpy(host.data(), result(), host.size(), cudaMemcpyDeviceToHost), "cudaMemcpy");
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i)
    bad += patterns::decode(dtype_, host.data() + i * es_) != patterns::expected(c_, op_, n_, rank_, shape_.count, i);
  return bad;
}

std::vector<double> time_on_gpu(const SuiteContext& ctx, const std::string& step, MPI_Comm mpi_comm, NcclComm& comm,
                                const std::function<void(double timeout_s)>& op) {
  Step guard(ctx.control, step);
  const auto t0 = std::chrono::steady_clock::now();
  const auto left = [&] {
    const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return std::max(0.01, gpu_wait_timeout_s(ctx.cfg.timeout_s) - used);
  };
  for (int i = 0; i < ctx.cfg.warmup_iters; ++i) op(left());
  comm.wait(step + " (warm-up)", left());

  std::vector<cudaEvent_t> ev(2);
  for (auto& e : ev) cuda_check(cudaEventCreate(&e), "cudaEventCreate");
  auto elapsed_s = [&](size_t a, size_t b) {
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, ev[a], ev[b]), "cudaEventElapsedTime");
    return ms * 1e-3;
  };
  MPI_Barrier(mpi_comm);
  cuda_check(cudaEventRecord(ev[0], comm.stream()), "cudaEventRecord");
  op(left());
  cuda_check(cudaEventRecord(ev[1], comm.stream()), "cudaEventRecord");
  comm.wait(step, left());
  double estimate = elapsed_s(0, 1);
  MPI_Allreduce(MPI_IN_PLACE, &estimate, 1, MPI_DOUBLE, MPI_MAX, mpi_comm);
  const int iters = adaptive_iterations(estimate, ctx.cfg.budget_s, ctx.cfg.iters, ctx.cfg.max_iters);

  ev.resize(static_cast<size_t>(iters) + 1);
  for (size_t i = 2; i < ev.size(); ++i) cuda_check(cudaEventCreate(&ev[i]), "cudaEventCreate");
  MPI_Barrier(mpi_comm);
  cuda_check(cudaEventRecord(ev[0], comm.stream()), "cudaEventRecord");
  for (size_t i = 1; i < ev.size(); ++i) {
    op(left());
    cuda_check(cudaEventRecord(ev[i], comm.stream()), "cudaEventRecord");
  }
  comm.wait(step, left());
  std::vector<double> samples(static_cast<size_t>(iters));
  for (size_t i = 0; i < samples.size(); ++i) samples[i] = elapsed_s(i, i + 1) * 1e6;
  for (auto e : ev) cudaEventDestroy(e);

  const Reduction red = ctx.cfg.reduction;
  MPI_Allreduce(MPI_IN_PLACE, samples.data(), iters, MPI_DOUBLE, red == Reduction::max ? MPI_MAX : red == Reduction::min ? MPI_MIN : MPI_SUM,
                mpi_comm);
  if (red == Reduction::mean)
    for (double& s : samples) s /= comm.size();
  return samples;
}

}  // namespace gpunet::bench::gpu
