#include "bench/engines/cuda_device.hpp"

#include <algorithm>
#include <vector>

#include "bench/engines/pcie_link.hpp"
#include "bench/engines/wait.hpp"
#include "bench/engines/numa.hpp"
#include "gpunet/build_config.h"

#if GPUNET_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace gpunet::bench::gpu {

std::string to_string(CopyDir d) {
  switch (d) {
    case CopyDir::h2d: return "h2d";
    case CopyDir::d2h: return "d2h";
    case CopyDir::bidir: return "bidir";
  }
  return "?";
}

std::string to_string(HostKind k) { return k == HostKind::pinned ? "pinned" : "pageable"; }

#if GPUNET_HAVE_CUDA

namespace {

void check(cudaError_t e, const std::string& what) {
  if (e != cudaSuccess) throw GpuError(what + ": " + cudaGetErrorString(e));
}

unsigned char pattern_byte(int64_t i, int salt) { return static_cast<unsigned char>((i * 131 + salt * 29 + (i >> 12)) & 0xff); }

void fill_pattern(unsigned char* p, int64_t n, int salt) {
  for (int64_t i = 0; i < n; ++i) p[i] = pattern_byte(i, salt);
}

int64_t count_wrong(const unsigned char* p, int64_t n, int salt) {
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i) bad += p[i] != pattern_byte(i, salt);
  return bad;
}

constexpr int kUpSalt = 1, kDownSalt = 2;

}  // namespace

GpuProbe probe_gpus() {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess)
    return {0, std::string("no usable GPU: cudaGetDeviceCount: ") + cudaGetErrorString(e) + " (" + cudaGetErrorName(e) + ")"};
  if (n == 0) return {0, "no GPU: the CUDA runtime found 0 devices"};
  return {n, ""};
}

GpuInfo gpu_info(int ordinal) {
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, ordinal), "cudaGetDeviceProperties");
  char bus[64] = {};
  check(cudaDeviceGetPCIBusId(bus, sizeof bus, ordinal), "cudaDeviceGetPCIBusId");
  return {ordinal, p.name, normalize_bus_id(bus), static_cast<int64_t>(p.totalGlobalMem)};
}

struct CopyCase::Impl {
  int device = 0;
  CopyDir dir = CopyDir::h2d;
  HostKind kind = HostKind::pinned;
  int64_t bytes = 0;
  node::NodeBuffer up_host{0, -1}, down_host{0, -1};  // source of H2D, target of D2H
  bool up_registered = false, down_registered = false;
  void* up_dev = nullptr;    // target of H2D
  void* down_dev = nullptr;  // source of D2H
  cudaStream_t s_up = nullptr, s_down = nullptr;
  cudaEvent_t start = nullptr, end_up = nullptr, end_down = nullptr;

  bool up() const { return dir != CopyDir::d2h; }
  bool down() const { return dir != CopyDir::h2d; }

  void enqueue() {
    check(cudaSetDevice(device), "cudaSetDevice");
    cudaStream_t first = up() ? s_up : s_down;
    check(cudaEventRecord(start, first), "cudaEventRecord");
    if (up()) {
      check(cudaMemcpyAsync(up_dev, up_host.data(), static_cast<size_t>(bytes), cudaMemcpyHostToDevice, s_up), "cudaMemcpyAsync H2D");
      check(cudaEventRecord(end_up, s_up), "cudaEventRecord");
    }
    if (down()) {
      if (first != s_down) check(cudaStreamWaitEvent(s_down, start, 0), "cudaStreamWaitEvent");
      check(cudaMemcpyAsync(down_host.data(), down_dev, static_cast<size_t>(bytes), cudaMemcpyDeviceToHost, s_down), "cudaMemcpyAsync D2H");
      check(cudaEventRecord(end_down, s_down), "cudaEventRecord");
    }
  }
};

CopyCase::CopyCase(int device, CopyDir dir, HostKind kind, int numa_node, int64_t bytes) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.device = device;
  m.dir = dir;
  m.kind = kind;
  m.bytes = bytes;
  const auto n = static_cast<size_t>(bytes);
  check(cudaSetDevice(device), "cudaSetDevice");
  auto host = [&](node::NodeBuffer& b, bool& registered, int salt) {
    b = node::NodeBuffer(n, numa_node);
    fill_pattern(b.data(), bytes, salt);
    if (kind == HostKind::pinned) {
      check(cudaHostRegister(b.data(), n, cudaHostRegisterPortable), "cudaHostRegister");
      registered = true;
    }
  };
  if (m.up()) {
    host(m.up_host, m.up_registered, kUpSalt);
    check(cudaMalloc(&m.up_dev, n), "cudaMalloc");
    check(cudaStreamCreateWithFlags(&m.s_up, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaEventCreate(&m.end_up), "cudaEventCreate");
  }
  if (m.down()) {
    host(m.down_host, m.down_registered, kDownSalt);
    check(cudaMalloc(&m.down_dev, n), "cudaMalloc");
    check(cudaMemcpy(m.down_dev, m.down_host.data(), n, cudaMemcpyHostToDevice), "cudaMemcpy (fill)");
    std::fill(m.down_host.data(), m.down_host.data() + n, static_cast<unsigned char>(0));
    check(cudaStreamCreateWithFlags(&m.s_down, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaEventCreate(&m.end_down), "cudaEventCreate");
  }
  check(cudaEventCreate(&m.start), "cudaEventCreate");
}

CopyCase::~CopyCase() {
  Impl& m = *impl_;
  cudaSetDevice(m.device);
  for (cudaEvent_t e : {m.start, m.end_up, m.end_down})
    if (e) cudaEventDestroy(e);
  for (cudaStream_t s : {m.s_up, m.s_down})
    if (s) cudaStreamDestroy(s);
  for (void* p : {m.up_dev, m.down_dev})
    if (p) cudaFree(p);
  if (m.up_registered) cudaHostUnregister(m.up_host.data());
  if (m.down_registered) cudaHostUnregister(m.down_host.data());
}

void CopyCase::launch() { impl_->enqueue(); }

double CopyCase::wait_s(double timeout_s) {
  Impl& m = *impl_;
  const auto outcome = wait_until(
      [&](std::string& err) {
        for (cudaEvent_t e : {m.end_up, m.end_down}) {
          if (!e) continue;
          const cudaError_t r = cudaEventQuery(e);
          if (r == cudaErrorNotReady) return Poll::pending;
          if (r != cudaSuccess) {
            err = cudaGetErrorString(r);
            return Poll::failed;
          }
        }
        return Poll::done;
      },
      timeout_s);
  if (outcome.kind == WaitOutcome::Kind::failed) throw GpuError("copy on GPU " + std::to_string(m.device) + " failed: " + outcome.error);
  if (outcome.kind == WaitOutcome::Kind::timed_out)
    throw GpuError("copy on GPU " + std::to_string(m.device) + " did not finish within " + std::to_string(timeout_s) + " s");
  float ms = 0, longest = 0;
  for (cudaEvent_t e : {m.end_up, m.end_down}) {
    if (!e) continue;
    check(cudaEventElapsedTime(&ms, m.start, e), "cudaEventElapsedTime");
    longest = std::max(longest, ms);
  }
  return longest * 1e-3;
}

int64_t CopyCase::wrong_bytes() {
  Impl& m = *impl_;
  const auto n = static_cast<size_t>(m.bytes);
  check(cudaSetDevice(m.device), "cudaSetDevice");
  int64_t bad = 0;
  if (m.up()) {
    check(cudaMemset(m.up_dev, 0, n), "cudaMemset");
    check(cudaMemcpy(m.up_dev, m.up_host.data(), n, cudaMemcpyHostToDevice), "cudaMemcpy H2D");
    std::vector<unsigned char> back(n);
    check(cudaMemcpy(back.data(), m.up_dev, n, cudaMemcpyDeviceToHost), "cudaMemcpy D2H");
    bad += count_wrong(back.data(), m.bytes, kUpSalt);
  }
  if (m.down()) {
    std::fill(m.down_host.data(), m.down_host.data() + n, static_cast<unsigned char>(0));
    check(cudaMemcpy(m.down_host.data(), m.down_dev, n, cudaMemcpyDeviceToHost), "cudaMemcpy D2H");
    bad += count_wrong(m.down_host.data(), m.bytes, kDownSalt);
  }
  return bad;
}

int CopyCase::host_numa() const {
  const auto& b = impl_->up() ? impl_->up_host : impl_->down_host;
  return b.data() ? node::node_of_address(b.data()) : -1;
}

int64_t CopyCase::bytes() const { return impl_->bytes; }

#else  // built without CUDA: probe_gpus() says so and nothing else is ever reached

GpuProbe probe_gpus() { return {0, "built without CUDA"}; }
GpuInfo gpu_info(int) { throw GpuError("built without CUDA"); }
struct CopyCase::Impl {};
CopyCase::CopyCase(int, CopyDir, HostKind, int, int64_t) { throw GpuError("built without CUDA"); }
CopyCase::~CopyCase() = default;
void CopyCase::launch() {}
double CopyCase::wait_s(double) { return 0; }
int64_t CopyCase::wrong_bytes() { return 0; }
int CopyCase::host_numa() const { return -1; }
int64_t CopyCase::bytes() const { return 0; }

#endif

}  // namespace gpunet::bench::gpu
