// (CUDA + NCCL + cuBLAS builds only.) The train suite's GPU path, bench/suites/train/gpu_step.hpp:
// bf16 GEMMs through cuBLAS on a compute stream, the gradient buckets all-reduced by NCCL on the
// communicator's own stream, each bucket ordered after "its" GEMM by a CUDA event, and NVML
// utilisation sampled by a thread during the overlapped steps.
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include "bench/core/control.hpp"
#include "bench/core/counters/nvml.hpp"
#include "bench/engines/cuda_device.hpp"
#include "bench/engines/patterns.hpp"
#include "bench/engines/wait.hpp"
#include "bench/engines/nccl_comm.hpp"
#include "bench/suites/train/gpu_step.hpp"

namespace gpunet::bench {

namespace {

using gpu::cuda_check;

constexpr int kGemmN = 8192;             // 2·8192³ = 1.1 TFLOP per GEMM: about 2 ms on an H100/H200
constexpr double kUtilisationEvery = 0.02;  // seconds between NVML readings

void blas_check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw gpu::NcclError(gpu::NcclError::Kind::failed, std::string(what) + ": cuBLAS status " + std::to_string(static_cast<int>(s)));
}

template <typename T>
struct DeviceBuffer {
  explicit DeviceBuffer(size_t n) { cuda_check(cudaMalloc(reinterpret_cast<void**>(&p), n * sizeof(T)), "cudaMalloc"); }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* p = nullptr;
};

// The compute phase: C = A·B in bf16 (fp32 accumulation), `count` times on one stream.
class Gemms {
 public:
  explicit Gemms(cudaStream_t s) : stream_(s), a_(kElems), b_(kElems), c_(kElems) {
    blas_check(cublasCreate(&handle_), "cublasCreate");
    blas_check(cublasSetStream(handle_, s), "cublasSetStream");
    for (auto* p : {a_.p, b_.p, c_.p}) cuda_check(cudaMemsetAsync(p, 0, kElems * sizeof(__nv_bfloat16), s), "cudaMemset");
  }
  ~Gemms() { cublasDestroy(handle_); }
  Gemms(const Gemms&) = delete;
  Gemms& operator=(const Gemms&) = delete;

  void one() {
    const float one = 1, zero = 0;
    blas_check(cublasGemmEx(handle_, CUBLAS_OP_N, CUBLAS_OP_N, kGemmN, kGemmN, kGemmN, &one, a_.p, CUDA_R_16BF, kGemmN,
                            b_.p, CUDA_R_16BF, kGemmN, &zero, c_.p, CUDA_R_16BF, kGemmN, CUBLAS_COMPUTE_32F,
                            CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx");
  }
  // Seconds per GEMM, from CUDA events around `reps` of them (after one warm-up).
  double calibrate(int reps = 5) {
    one();
    cudaEvent_t t0, t1;
    cuda_check(cudaEventCreate(&t0), "cudaEventCreate");
    cuda_check(cudaEventCreate(&t1), "cudaEventCreate");
    cuda_check(cudaEventRecord(t0, stream_), "cudaEventRecord");
    for (int i = 0; i < reps; ++i) one();
    cuda_check(cudaEventRecord(t1, stream_), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(t1), "cudaEventSynchronize");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, t0, t1), "cudaEventElapsedTime");
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    return ms * 1e-3 / reps;
  }

 private:
  static constexpr size_t kElems = static_cast<size_t>(kGemmN) * kGemmN;
  cudaStream_t stream_;
  cublasHandle_t handle_ = nullptr;
  DeviceBuffer<__nv_bfloat16> a_, b_, c_;
};

// NVML readings of one GPU in a thread, from start() until stop().
class UtilisationSampler {
 public:
  UtilisationSampler(int device, std::string& note) : device_(device) {
    nvml_ = counters::Nvml::open(note);
  }
  ~UtilisationSampler() { stop(); }
  UtilisationSampler(const UtilisationSampler&) = delete;
  UtilisationSampler& operator=(const UtilisationSampler&) = delete;

  void start() {
    if (!nvml_ || thread_.joinable()) return;
    running_ = true;
    thread_ = std::thread([this] {
      const auto t0 = std::chrono::steady_clock::now();
      while (running_) {
        for (const auto& s : nvml_->sample())
          if (s.index == device_)
            points_.push_back({std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), s.util_pct});
        std::this_thread::sleep_for(std::chrono::duration<double>(kUtilisationEvery));
      }
    });
  }
  std::vector<UtilisationPoint> stop() {
    running_ = false;
    if (thread_.joinable()) thread_.join();
    return points_;
  }

 private:
  int device_;
  std::unique_ptr<counters::Nvml> nvml_;
  std::atomic<bool> running_{false};
  std::thread thread_;
  std::vector<UtilisationPoint> points_;
};

bool all_ranks_have_a_gpu(const SuiteContext& ctx, std::string& reason) {
  const auto probe = gpu::probe_gpus();
  std::string why = probe.reason;
  if (why.empty() && ctx.mpi.local_rank >= probe.count)
    why = "local rank " + std::to_string(ctx.mpi.local_rank) + " but the node has " + std::to_string(probe.count) +
          " GPU(s): run at most one rank per GPU";
  int ok = why.empty(), all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, ctx.mpi.world);
  if (all) return true;
  // Rank 0's reason, or a generic one when rank 0 itself was fine.
  char text[256] = {};
  if (ctx.mpi.rank == 0) std::snprintf(text, sizeof text, "%s", why.empty() ? "a rank has no usable GPU" : why.c_str());
  MPI_Bcast(text, sizeof text, MPI_CHAR, 0, ctx.mpi.world);
  reason = text;
  return false;
}

}  // namespace

bool gpu_train_built() { return true; }

std::optional<GpuStepTimings> gpu_train_steps(const SuiteContext& ctx, const StepPlan& p, std::string& reason) {
  if (!all_ranks_have_a_gpu(ctx, reason)) return std::nullopt;
  const double timeout = gpu::gpu_wait_timeout_s(ctx.cfg.timeout_s);
  const MPI_Comm world = ctx.mpi.world;
  GpuStepTimings out;
  out.device = ctx.mpi.local_rank;
  out.gpu_name = gpu::gpu_info(out.device).name;
  out.gemm_n = kGemmN;
  std::unique_ptr<gpu::NcclComm> comm;
  {
    Step s(ctx.control, "train gpu init");
    comm = std::make_unique<gpu::NcclComm>(world, out.device, timeout);
  }
  cudaStream_t compute = nullptr;
  cuda_check(cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking), "cudaStreamCreate");
  struct StreamGuard {
    cudaStream_t s;
    ~StreamGuard() { cudaStreamDestroy(s); }
  } guard{compute};
  Gemms gemms(compute);
  out.gemm_s = gemms.calibrate();
  out.gemms = gemms_for(p.compute_s, out.gemm_s);
  const auto sizes = bucket_sizes(p.grad_bytes, p.bucket_bytes);
  const auto after = buckets_ready_after_gemm(bucket_ready_s(p), out.gemm_s, out.gemms);
  const size_t count = static_cast<size_t>(p.grad_bytes) / sizeof(float);
  std::vector<float> host(count);
  for (size_t i = 0; i < count; ++i) host[i] = static_cast<float>(patterns::input(ctx.mpi.rank, static_cast<int64_t>(i)));
  DeviceBuffer<float> send(count), recv(count);
  cuda_check(cudaMemcpy(send.p, host.data(), count * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
  std::vector<cudaEvent_t> ready(sizes.size());
  for (auto& e : ready) cuda_check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");

  auto allreduce = [&](size_t i, int64_t offset) {
    const size_t first = static_cast<size_t>(offset) / sizeof(float), n = static_cast<size_t>(sizes[i]) / sizeof(float);
    comm->check(ncclAllReduce(send.p + first, recv.p + first, n, ncclFloat, ncclSum, comm->get(), comm->stream()),
                "ncclAllReduce", timeout);
  };
  auto compute_alone = [&] {
    for (int j = 0; j < out.gemms; ++j) gemms.one();
    cuda_check(cudaStreamSynchronize(compute), "cudaStreamSynchronize");
  };
  auto comm_alone = [&] {
    int64_t offset = 0;
    for (size_t i = 0; i < sizes.size(); offset += sizes[i], ++i) allreduce(i, offset);
    comm->wait("ncclAllReduce", timeout);
  };
  auto overlapped = [&] {
    size_t next = 0;
    int64_t offset = 0;
    for (int j = 1; j <= out.gemms; ++j) {
      gemms.one();
      for (; next < sizes.size() && after[next] == j; offset += sizes[next], ++next) {
        cuda_check(cudaEventRecord(ready[next], compute), "cudaEventRecord");
        cuda_check(cudaStreamWaitEvent(comm->stream(), ready[next], 0), "cudaStreamWaitEvent");
        allreduce(next, offset);
      }
    }
    cuda_check(cudaStreamSynchronize(compute), "cudaStreamSynchronize");
    comm->wait("ncclAllReduce", timeout);
  };
  out.compute = ctx.runner.time_op("train gpu compute", world, compute_alone);
  out.comm = ctx.runner.time_op("train gpu allreduce", world, comm_alone);
  cuda_check(cudaMemset(recv.p, 0, count * sizeof(float)), "cudaMemset");
  UtilisationSampler sampler(out.device, out.utilisation_note);
  if (ctx.mpi.is_root()) sampler.start();
  out.step = ctx.runner.time_op("train gpu step", world, overlapped);
  out.utilisation = sampler.stop();
  for (auto& e : ready) cudaEventDestroy(e);
  cuda_check(cudaMemcpy(host.data(), recv.p, count * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
  for (size_t i = 0; i < count; ++i)
    out.wrong += static_cast<double>(host[i]) != patterns::reduced("sum", ctx.mpi.size, static_cast<int64_t>(i));
  MPI_Allreduce(MPI_IN_PLACE, &out.wrong, 1, MPI_INT64_T, MPI_SUM, world);
  return out;
}

}  // namespace gpunet::bench
