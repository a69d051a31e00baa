#include "bench/suites/nccl/nccl_bench.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>

#include "bench/engines/wait.hpp"
#include "bench/core/measure/mpi_timer.hpp"

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

// The two events around a batch, created once per figure.
struct BatchEvents {
  BatchEvents() {
    cuda_check(cudaEventCreate(&start), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
  }
  ~BatchEvents() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  BatchEvents(const BatchEvents&) = delete;
  BatchEvents& operator=(const BatchEvents&) = delete;
  cudaEvent_t start = nullptr, stop = nullptr;
};

// With -G/--cudagraph N, as nccl-tests' -G: a batch of k iterations is captured once into a CUDA graph
// (capture enqueues nothing, so it stays outside the timed events) and the graph is launched N times
// between the events; the batch's time is the events' interval over N. One graph per batch length.
class BatchGraphs {
 public:
  BatchGraphs() = default;
  ~BatchGraphs() {
    for (auto& [k, g] : graphs_) cudaGraphExecDestroy(g);
  }
  BatchGraphs(const BatchGraphs&) = delete;
  BatchGraphs& operator=(const BatchGraphs&) = delete;

  cudaGraphExec_t of(int iters, cudaStream_t s, const std::function<void()>& enqueue_one) {
    if (const auto it = graphs_.find(iters); it != graphs_.end()) return it->second;
    cuda_check(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
    for (int i = 0; i < iters; ++i) enqueue_one();
    cudaGraph_t graph = nullptr;
    cuda_check(cudaStreamEndCapture(s, &graph), "cudaStreamEndCapture");
    cudaGraphExec_t exec = nullptr;
    const cudaError_t made = cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);
    cuda_check(made, "cudaGraphInstantiate");
    return graphs_[iters] = exec;
  }

 private:
  std::map<int, cudaGraphExec_t> graphs_;
};

}  // namespace

NcclCase::NcclCase(Collective c, const std::string& dtype, const std::string& op, int64_t bytes, bool in_place, const NcclComm& comm)
    : c_(c), dtype_(dtype), op_(op), in_place_(in_place), rank_(comm.rank()), n_(comm.size()), es_(dtype_size(dtype)),
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

measure::Timing time_on_gpu(const SuiteContext& ctx, const std::string& step, MPI_Comm mpi_comm, NcclComm& comm,
                            const std::function<void(double timeout_s)>& op) {
  const auto t0 = std::chrono::steady_clock::now();  // the step starts now: its waits share --timeout
  const auto left = [t0, &ctx] {
    const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return std::max(0.01, gpu_wait_timeout_s(ctx.cfg.timeout_s) - used);
  };
  BatchEvents events;
  BatchGraphs graphs;
  const int launches = ctx.cfg.cuda_graph_launches;
  measure::Timer timer;
  timer.clock = "cudaEvent";
  timer.clock_cost_s = kNcclEventResolution_s;
  timer.batch_s = [&](int iters) {
    const cudaGraphExec_t graph = launches > 0 ? graphs.of(iters, comm.stream(), [&] { op(left()); }) : nullptr;
    cuda_check(cudaEventRecord(events.start, comm.stream()), "cudaEventRecord");
    if (graph)
      for (int j = 0; j < launches; ++j) cuda_check(cudaGraphLaunch(graph, comm.stream()), "cudaGraphLaunch");
    else
      for (int i = 0; i < iters; ++i) op(left());
    cuda_check(cudaEventRecord(events.stop, comm.stream()), "cudaEventRecord");
    comm.wait(step, left());
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, events.start, events.stop), "cudaEventElapsedTime");
    return ms * 1e-3 / std::max(1, launches);
  };
  return measure::measure(ctx.control, step, StepScope::all_ranks, measure::rules_of(ctx.cfg),
                          measure::over_ranks(std::move(timer), mpi_comm, ctx.cfg.reduction));
}

}  // namespace gpunet::bench::gpu
